// What every API-key verb is given: the service's dependencies with the database handle unwrapped.
import type { CredentialCache } from '../auth/credential-cache';
import type { Clock } from '../core/clock';
import { hmacHex } from '../core/crypto';
import type { Database } from '../db/client';
import type { ReadRouting } from '../db/read-replica';

/**
 * The API keys service's dependencies, as `api-keys.module.ts` builds them from the kernel.
 *
 * @example
 * ```ts
 * createApiKeysService({ ...kernel, digestKey: kernel.secrets.keyDigest, rotationGraceMs: kernel.config.KEY_ROTATION_GRACE });
 * ```
 */
export interface ApiKeysDeps {
  database: Database;
  clock: Clock;
  credentials: CredentialCache;
  digestKey: Buffer;
  /** How long a rotated key keeps working (KEY_ROTATION_GRACE). */
  rotationGraceMs: number;
  /** List pages read here: the replica when it is fit (db/read-replica.ts), else the primary. */
  reads?: Pick<ReadRouting, 'reader'>;
}

/** The context each verb function takes first (each names the part it uses with `Pick`). */
export interface ApiKeysContext extends Omit<ApiKeysDeps, 'database'> {
  db: Database['db'];
}

/** Keys are stored only as this keyed digest; the bearer hook finds a key by it. */
export const keyDigest = (ctx: Pick<ApiKeysContext, 'digestKey'>, key: string) => hmacHex(ctx.digestKey, key);
