// The server secret every key is derived from (crypto.ts deriveKey).
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomToken } from './crypto';

/**
 * The server secret: SECRET_KEY when set, else one generated once and kept in DATA_DIR, so that sessions,
 * key digests and sealed secrets survive restarts without any set-up.
 *
 * @example
 * ```ts
 * import { resolveSecretKey } from './secret-key';
 *
 * const secret = resolveSecretKey(process.env.SECRET_KEY, '/var/lib/demoshare'); // creates /var/lib/demoshare/secret.key once
 * ```
 */
export function resolveSecretKey(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomToken(48);
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return secret;
}
