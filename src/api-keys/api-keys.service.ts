import { tags } from '../core/changes';
import { type CachedCredential, type CredentialCache, touchIfStale } from '../auth/credential-cache';
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import { type AuthContext, type Role, roleAllows, type Scope } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { hmacHex } from '../core/crypto';
import { AppError, forbidden, invalid, notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { Database, Executor } from '../db/client';
import * as repo from './api-keys.repo';
import { displayParts, generateApiKey, isWellFormedApiKey, KEY_PREFIX } from './key-format';

export interface ApiKeysDeps {
  database: Database;
  clock: Clock;
  credentials: CredentialCache;
  digestKey: Buffer;
  rotationGraceMs: number;
}

export interface NewKey {
  name: string;
  scopes: Scope[];
  expiresAt?: Date | null;
}

// last_used_at is advisory: written at most this often per key, off the request path.
const TOUCH_INTERVAL_MS = 60_000;

export function createApiKeysService({ database, clock, credentials, digestKey, rotationGraceMs }: ApiKeysDeps) {
  const { db } = database;
  const digestOf = (key: string) => hmacHex(digestKey, key);

  /** Inserts a key for `memberId` and returns the row with the only copy of the plaintext. */
  async function issue(workspaceId: string, memberId: string, input: NewKey, executor: Executor = db) {
    const now = clock.now();
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
      digest: digestOf(key),
      scopes: input.scopes,
      createdAt: now,
      expiresAt: input.expiresAt ?? null,
    });
    return { row, key };
  }

  /** A key of the caller's workspace that the caller may manage (their own, or any for admins). */
  async function manageable(auth: AuthContext, id: string) {
    const row = await repo.findKey(db, auth.workspaceId, id);
    if (!row || row.revokedAt || (!roleAllows(auth.role, 'keys.manage_all') && row.memberId !== auth.memberId)) {
      throw notFound('API key');
    }
    return row;
  }

  /**
   * A key the caller may rotate: only their own. A rotation hands out a new plaintext that acts as the key's
   * member, so an admin rotating someone else's key would hold a credential of theirs, one that outlives the
   * admin's own removal. Admins see every key, so the refusal names the rule (403) rather than hiding it.
   */
  async function ownKey(auth: AuthContext, id: string) {
    const row = await manageable(auth, id);
    if (row.memberId !== auth.memberId) {
      throw forbidden(
        'Only the member who owns an API key can rotate it: the new key would act as them. Revoke it instead, and ask them to create or rotate their own.',
      );
    }
    return row;
  }

  /** A key for `memberId`, audited as made by `actor`: the web app's creation, and the CLI's `keys create`. */
  async function issueRecorded(workspaceId: string, memberId: string, input: NewKey, actor: Actor) {
    return db.transaction(async (tx) => {
      const issued = await issue(workspaceId, memberId, input, tx);
      await recordAudit(tx, clock, actor, {
        workspaceId,
        action: 'key.created',
        target: { type: 'api_key', id: issued.row.id, label: issued.row.name },
        changes: { scopes: issued.row.scopes, expires_at: issued.row.expiresAt?.toISOString() ?? null, member_id: memberId },
      });
      return issued;
    });
  }

  async function create(auth: AuthContext, input: NewKey, actor: Actor) {
    return issueRecorded(auth.workspaceId, auth.memberId, input, actor);
  }

  async function list(auth: AuthContext, page: { limit: number; offset: number }) {
    return repo.listKeys(db, auth.workspaceId, roleAllows(auth.role, 'keys.manage_all') ? undefined : auth.memberId, page);
  }

  /**
   * Issues a replacement with the same name, scopes and owner, for the owner only. The old key keeps working
   * for the grace period (so deployments can switch over) and then expires.
   */
  async function rotate(auth: AuthContext, id: string, actor: Actor, graceMs = rotationGraceMs) {
    const old = await ownKey(auth, id);
    const now = clock.now();
    if (old.expiresAt && old.expiresAt <= now) throw new AppError('conflict', 'This key has expired: create a new one');
    // A second rotation would leave two live successors of one key; rotate the replacement instead.
    if (old.replacedById) throw new AppError('conflict', 'This key has already been rotated: rotate its replacement');
    const graceEnd = new Date(now.getTime() + graceMs);
    const expiresAt = old.expiresAt && old.expiresAt < graceEnd ? old.expiresAt : graceEnd;
    const fresh = await db.transaction(async (tx) => {
      const issued = await issue(auth.workspaceId, old.memberId, {
        name: old.name,
        scopes: old.scopes as Scope[],
        expiresAt: old.expiresAt,
      }, tx);
      await repo.updateKey(tx, old.id, { expiresAt, replacedById: issued.row.id });
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'key.rotated',
        target: { type: 'api_key', id: old.id, label: old.name },
        changes: { replaced_by: issued.row.id, old_key_expires_at: expiresAt.toISOString() },
      });
      return issued;
    });
    await credentials.invalidate(tags.credential(old.id));
    return { ...fresh, previous: { id: old.id, expiresAt } };
  }

  async function revoke(auth: AuthContext, id: string, actor: Actor) {
    const row = await manageable(auth, id);
    await db.transaction(async (tx) => {
      await repo.updateKey(tx, row.id, { revokedAt: clock.now() });
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'key.revoked',
        target: { type: 'api_key', id: row.id, label: row.name },
      });
    });
    await credentials.invalidate(tags.credential(row.id));
  }

  const touch = (entry: CachedCredential, now: Date) =>
    touchIfStale(entry, now, TOUCH_INTERVAL_MS, (at) => repo.updateKey(db, entry.auth.credentialId, { lastUsedAt: at }).then(() => {}));

  /** Bearer resolution: served from the credential cache, one query on a miss. */
  async function resolve(token: string): Promise<AuthContext | null> {
    if (!isWellFormedApiKey(token)) return null;
    const digest = digestOf(token);
    const now = clock.now();
    const entry = await credentials.resolve(digest, now, async () => {
      const found = await repo.findKeyByDigest(db, digest);
      if (!found || found.key.revokedAt || found.member.status !== 'active' || !found.member.userId) return null;
      return {
        auth: {
          kind: 'api_key',
          credentialId: found.key.id,
          workspaceId: found.key.workspaceId,
          userId: found.member.userId,
          memberId: found.member.id,
          role: found.member.role as Role,
          scopes: new Set(found.key.scopes as Scope[]),
        },
        expiresAt: found.key.expiresAt,
        lastUsedAt: found.key.lastUsedAt,
      };
    });
    if (!entry) return null;
    touch(entry, now);
    return entry.auth;
  }

  return { create, issue, issueRecorded, list, rotate, revoke, resolve, prefix: KEY_PREFIX, digestOf };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
