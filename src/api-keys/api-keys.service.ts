import type { Actor } from '../audit/actor';
import { type AuthContext, roleAllows } from '../auth/permissions';
import type { Executor } from '../db/client';
import { issueKey, issueRecordedKey, type NewKey } from './api-key-issuing';
import { resolveApiKey } from './api-key-resolution';
import { revokeKey } from './api-key-revocation';
import { rotateKey } from './api-key-rotation';
import { type ApiKeysContext, type ApiKeysDeps, keyDigest } from './api-keys-context';
import * as repo from './api-keys.repo';
import { KEY_PREFIX } from './key-format';

/**
 * API keys: issued by members (and the CLI), listed, rotated with a grace period, revoked, and resolved on
 * every bearer request. Each verb is a function of its own file taking the context built here:
 * api-key-issuing.ts (issue, issueRecorded, create), api-key-rotation.ts, api-key-revocation.ts,
 * api-key-resolution.ts; who may reach which key is api-key-access.ts.
 *
 * @example
 * ```ts
 * const apiKeys = createApiKeysService({ ...kernel, digestKey: kernel.secrets.keyDigest, rotationGraceMs: 86_400_000 });
 * const { row, key } = await apiKeys.create(auth, { name: 'CI', scopes: ['demos:read'] }, actor);
 * const caller = await apiKeys.resolve(key); // the member's AuthContext, with the key's scopes
 * ```
 */
export function createApiKeysService({ database, ...deps }: ApiKeysDeps) {
  const ctx: ApiKeysContext = { ...deps, db: database.db };
  return {
    /** A key of the caller's own, audited. */
    create: (auth: AuthContext, input: NewKey, actor: Actor) => issueRecordedKey(ctx, auth.workspaceId, auth.memberId, input, actor),
    issue: (workspaceId: string, memberId: string, input: NewKey, executor?: Executor) => issueKey(ctx, workspaceId, memberId, input, executor),
    issueRecorded: (workspaceId: string, memberId: string, input: NewKey, actor: Actor) =>
      issueRecordedKey(ctx, workspaceId, memberId, input, actor),
    /** The caller's keys, or every key of the workspace for admins. */
    list: (auth: AuthContext, page: { limit: number; offset: number }) =>
      repo.listKeys(ctx.reads?.reader(auth.workspaceId) ?? ctx.db, auth.workspaceId, roleAllows(auth.role, 'keys.manage_all') ? undefined : auth.memberId, page),
    rotate: (auth: AuthContext, id: string, actor: Actor, graceMs?: number) => rotateKey(ctx, auth, id, actor, graceMs),
    revoke: (auth: AuthContext, id: string, actor: Actor) => revokeKey(ctx, auth, id, actor),
    resolve: (token: string) => resolveApiKey(ctx, token),
    prefix: KEY_PREFIX,
    digestOf: (key: string) => keyDigest(ctx, key),
  };
}

/** `services.apiKeys.apiKeys`. */
export type ApiKeysService = ReturnType<typeof createApiKeysService>;
