import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hash,
  hkdfSync,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * `length` characters drawn uniformly from [0-9A-Za-z] by a CSPRNG (5.95 bits each).
 *
 * @example
 * ```ts
 * import { randomBase62 } from './crypto';
 *
 * const token = randomBase62(22); // ~131 bits, e.g. for a share link
 * ```
 */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

/**
 * A URL-safe random token carrying `bytes` bytes of entropy.
 *
 * @example
 * ```ts
 * import { randomToken } from './crypto';
 *
 * const csrf = randomToken(); // 43 characters of base64url
 * ```
 */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * One-shot `hash` (Node >= 20.12) skips the Hash object: it shows in the profile of every viewer request.
 *
 * @example
 * ```ts
 * import { sha256Hex } from './crypto';
 *
 * sha256Hex('abc'); // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 * ```
 */
export function sha256Hex(value: string | Buffer): string {
  return hash('sha256', value, 'hex');
}

/**
 * HMAC-SHA-256 of `value` under `key`, hex: digests of API keys and tokens, which the key makes useless to
 * anyone who reads the database alone.
 *
 * @example
 * ```ts
 * import { deriveKey, hmacHex } from './crypto';
 *
 * const digest = hmacHex(deriveKey('server secret', 'api-key-digest'), 'dsk_live_…');
 * ```
 */
export function hmacHex(key: string | Buffer, value: string | Buffer): string {
  return createHmac('sha256', key).update(value).digest('hex');
}

/**
 * Constant-time string comparison; unequal lengths compare unequal without leaking where they differ.
 *
 * @example
 * ```ts
 * import { safeEqual } from './crypto';
 *
 * safeEqual('expected-csrf', 'given-csrf'); // false, in time independent of where they differ
 * ```
 */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

// OWASP Password Storage Cheat Sheet: argon2id, m=19 MiB, t=2, p=1.
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * An argon2id hash of a password (OWASP parameters), with its salt and parameters in the string.
 *
 * @example
 * ```ts
 * import { hashPassword, verifyPassword } from './crypto';
 *
 * const stored = await hashPassword('correct horse battery staple');
 * await verifyPassword(stored, 'correct horse battery staple'); // true
 * ```
 */
export function hashPassword(password: string): Promise<string> {
  return argonHash(password, ARGON2);
}

/**
 * Whether `password` matches `hash`; false, never a throw, for a malformed hash.
 *
 * @example
 * ```ts
 * import { verifyPassword } from './crypto';
 *
 * await verifyPassword('not a hash', 'anything'); // false
 * ```
 */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argonVerify(hash, password);
  } catch {
    return false;
  }
}

/**
 * Keys for distinct purposes derived from the one server secret, so that no two uses share a key.
 *
 * @example
 * ```ts
 * import { deriveKey } from './crypto';
 *
 * const sealing = deriveKey('server secret', 'webhook-secret-sealing'); // 32 bytes
 * ```
 */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'demoshare', purpose, 32));
}

/**
 * AES-256-GCM sealing for secrets that must be read back (webhook secrets). Output: v1.iv.tag.ciphertext
 *
 * @example
 * ```ts
 * import { deriveKey, seal, unseal } from './crypto';
 *
 * const key = deriveKey('server secret', 'webhook-secret-sealing');
 * unseal(key, seal(key, 'whsec_abc')); // 'whsec_abc'
 * ```
 */
export function seal(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(
    '.',
  );
}

/**
 * The plaintext of `seal`; throws when the value was altered or sealed under another key.
 *
 * @example
 * ```ts
 * import { deriveKey, seal, unseal } from './crypto';
 *
 * const sealed = seal(deriveKey('old secret', 'p'), 'whsec_abc');
 * unseal(deriveKey('new secret', 'p'), sealed); // throws: the authentication tag does not match
 * ```
 */
export function unseal(key: Buffer, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unrecognised sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
