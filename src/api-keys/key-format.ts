// The text of an API key: dsk_, 43 random base62 characters and a CRC32 checksum, so a typo is refused without a query.
import { crc32 } from 'node:zlib';
import { randomBase62 } from '../core/crypto';

/** Every API key starts with this: the bearer hook picks the resolver by it. */
export const KEY_PREFIX = 'dsk_';
const BODY_LENGTH = 43; // 43 base62 characters ≈ 256 bits
const CHECKSUM_LENGTH = 6;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function checksum(body: string): string {
  let n = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/**
 * `dsk_` + 43 random base62 characters + a 6-character CRC32 checksum. The checksum lets the server (and
 * secret scanners) reject a mistyped or made-up key without a lookup.
 */
export function generateApiKey(): string {
  const body = randomBase62(BODY_LENGTH);
  return `${KEY_PREFIX}${body}${checksum(body)}`;
}

/** The prefix, length, alphabet and checksum of a key, checked before any lookup. */
export function isWellFormedApiKey(key: string): boolean {
  if (!key.startsWith(KEY_PREFIX) || key.length !== KEY_PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH) return false;
  const rest = key.slice(KEY_PREFIX.length);
  if (!/^[0-9A-Za-z]+$/.test(rest)) return false;
  return checksum(rest.slice(0, BODY_LENGTH)) === rest.slice(BODY_LENGTH);
}

/** What a list shows of a key: enough to recognise it, never enough to use it. */
export function displayParts(key: string) {
  return { prefix: key.slice(0, KEY_PREFIX.length + 4), lastFour: key.slice(-4) };
}
