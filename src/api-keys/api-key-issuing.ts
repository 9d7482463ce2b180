// Making a key: the plaintext shown once, its digest stored; audited when a person or the CLI asks for it.
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { Scope } from '../auth/permissions';
import { invalid } from '../core/errors';
import { newId } from '../core/ids';
import type { Executor } from '../db/client';
import { type ApiKeysContext, keyDigest } from './api-keys-context';
import * as repo from './api-keys.repo';
import { displayParts, generateApiKey } from './key-format';

/** What a new key is made of (the create form, the CLI, a rotation copying the old key). */
export interface NewKey {
  name: string;
  scopes: Scope[];
  expiresAt?: Date | null;
}

/**
 * Inserts a key for `memberId` and returns the row with the only copy of the plaintext. Not audited: a
 * caller inside a larger change (a rotation) records that change instead.
 *
 * @example
 * ```ts
 * const { row, key } = await issueKey(ctx, workspaceId, memberId, { name: 'CI', scopes: ['demos:read'] }, tx);
 * ```
 */
export async function issueKey(
  ctx: Pick<ApiKeysContext, 'db' | 'clock' | 'digestKey'>,
  workspaceId: string,
  memberId: string,
  input: NewKey,
  executor: Executor = ctx.db,
) {
  const now = ctx.clock.now();
  if (input.expiresAt && input.expiresAt <= now) throw invalid('expires_at must be in the future');
  const key = generateApiKey();
  const { prefix, lastFour } = displayParts(key);
  const row = await repo.insertKey(executor, {
    id: newId('apiKey'),
    workspaceId,
    memberId,
    name: input.name,
    prefix,
    lastFour,
    digest: keyDigest(ctx, key),
    scopes: input.scopes,
    createdAt: now,
    expiresAt: input.expiresAt ?? null,
  });
  return { row, key };
}

/**
 * A key for `memberId`, audited as made by `actor`: the web app's creation, and the CLI's `keys create`.
 *
 * @example
 * ```ts
 * const { row, key } = await issueRecordedKey(ctx, workspaceId, memberId, { name: 'cli', scopes }, systemActor());
 * ```
 */
export async function issueRecordedKey(
  ctx: Pick<ApiKeysContext, 'db' | 'clock' | 'digestKey'>,
  workspaceId: string,
  memberId: string,
  input: NewKey,
  actor: Actor,
) {
  return ctx.db.transaction(async (tx) => {
    const issued = await issueKey(ctx, workspaceId, memberId, input, tx);
    await recordAudit(tx, ctx.clock, actor, {
      workspaceId,
      action: 'key.created',
      target: { type: 'api_key', id: issued.row.id, label: issued.row.name },
      changes: { scopes: issued.row.scopes, expires_at: issued.row.expiresAt?.toISOString() ?? null, member_id: memberId },
    });
    return issued;
  });
}
