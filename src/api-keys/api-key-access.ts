// Which keys a caller may reach: manage (their own, or any for admins) and rotate (only their own).
import { type AuthContext, roleAllows } from '../auth/permissions';
import { forbidden, notFound } from '../core/errors';
import type { ApiKeysContext } from './api-keys-context';
import * as repo from './api-keys.repo';

/**
 * A live key of the caller's workspace that the caller may manage (their own, or any for admins); any
 * other is a 404.
 *
 * @example
 * ```ts
 * const row = await manageableKey(ctx, auth, 'apiKey_01j…');
 * ```
 */
export async function manageableKey(ctx: Pick<ApiKeysContext, 'db'>, auth: AuthContext, id: string) {
  const row = await repo.findKey(ctx.db, auth.workspaceId, id);
  if (!row || row.revokedAt || (!roleAllows(auth.role, 'keys.manage_all') && row.memberId !== auth.memberId)) {
    throw notFound('API key');
  }
  return row;
}

/**
 * A key the caller may rotate: only their own. A rotation hands out a new plaintext that acts as the key's
 * member, so an admin rotating someone else's key would hold a credential of theirs, one that outlives the
 * admin's own removal. Admins see every key, so the refusal names the rule (403) rather than hiding it.
 *
 * @example
 * ```ts
 * const old = await ownKey(ctx, auth, 'apiKey_01j…');
 * ```
 */
export async function ownKey(ctx: Pick<ApiKeysContext, 'db'>, auth: AuthContext, id: string) {
  const row = await manageableKey(ctx, auth, id);
  if (row.memberId !== auth.memberId) {
    throw forbidden(
      'Only the member who owns an API key can rotate it: the new key would act as them. Revoke it instead, and ask them to create or rotate their own.',
    );
  }
  return row;
}
