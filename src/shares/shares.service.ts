import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { type Changes, tags } from '../core/changes';
import type { Clock } from '../core/clock';
import { hashPassword, randomToken } from '../core/crypto';
import { invalid, notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { Database, Executor } from '../db/client';
import type { DemoReader } from '../demos/demos.reader';
import { emitEvent } from '../events/outbox';
import type { LinkViewers } from './link-viewers';
import * as repo from './shares.repo';
import type { ShareRow } from './shares.schemas';
import type { ShareDefaults } from '../workspaces/workspaces.service';

export interface SharesDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  changes: Pick<Changes, 'announce'>;
  demos: Pick<DemoReader, 'find' | 'lock'>;
  /** The workspace's defaults for what a new link's request leaves out. */
  shareDefaults(workspaceId: string): Promise<ShareDefaults>;
  /** The links' viewer sessions and access log (the viewing domain's): read when called. */
  readonly viewers: LinkViewers;
}

export interface NewShare {
  name?: string;
  password?: string;
  expiresAt?: string | null;
  /** Left out: the workspace's default. */
  requireIdentification?: boolean;
  allowedEmails?: string[];
  allowedDomains?: string[];
}

export interface ShareChange {
  name?: string;
  password?: string | null;
  expiresAt?: string | null;
  requireIdentification?: boolean;
  allowedEmails?: string[];
  allowedDomains?: string[];
}

const unique = (values: string[]) => [...new Set(values)];

export function createSharesService(deps: SharesDeps) {
  const { db } = deps.database;
  const { clock } = deps;

  function checkExpiry(expiresAt: string | null | undefined) {
    if (expiresAt && new Date(expiresAt) <= clock.now()) {
      throw invalid('expires_at must be in the future', [{ field: 'expires_at', message: 'must be in the future' }]);
    }
  }

  /** Allow-lists decide who may identify, so they mean nothing on a link that asks nobody. */
  function checkLists(state: Pick<ShareRow, 'requireIdentification' | 'allowedEmails' | 'allowedDomains'>) {
    if (!state.requireIdentification && (state.allowedEmails.length > 0 || state.allowedDomains.length > 0)) {
      throw invalid('allowed_emails and allowed_domains need require_identification: true', [
        { field: 'require_identification', message: 'must be true when an allow-list is set' },
      ]);
    }
  }

  async function requireDemo(auth: AuthContext, demoId: string) {
    const found = await deps.demos.find(auth.workspaceId, demoId);
    if (!found) throw notFound('Demo');
    return found.demo;
  }

  /**
   * Locks a link for a change that may move its demo's share_url. The demo's row first, as deleting a demo
   * does (its links go by cascade), so the two never wait on each other in opposite orders.
   */
  async function lockWithDemo(tx: Executor, workspaceId: string, id: string) {
    const found = await repo.findShare(tx, workspaceId, id);
    if (!found) throw notFound('Share');
    await deps.demos.lock(tx, workspaceId, found.demoId);
    const share = await repo.lockShare(tx, workspaceId, id);
    if (!share) throw notFound('Share');
    return share;
  }

  async function create(auth: AuthContext, demoId: string, input: NewShare, actor: Actor) {
    checkExpiry(input.expiresAt);
    const defaults = await deps.shareDefaults(auth.workspaceId);
    const expiresAt =
      input.expiresAt !== undefined
        ? input.expiresAt && new Date(input.expiresAt)
        : defaults.expiresInDays && new Date(clock.now().getTime() + defaults.expiresInDays * 86_400_000);
    const lists = {
      requireIdentification: input.requireIdentification ?? defaults.requireIdentification,
      allowedEmails: unique(input.allowedEmails ?? []),
      allowedDomains: unique(input.allowedDomains ?? []),
    };
    checkLists(lists);
    await requireDemo(auth, demoId);
    const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
    const now = clock.now();
    const share = await db.transaction(async (tx) => {
      // The demo may have been deleted since the check; the foreign key would refuse, the lock says 404.
      const demo = await deps.demos.lock(tx, auth.workspaceId, demoId);
      if (!demo) throw notFound('Demo');
      const created = await repo.insertShare(tx, {
        id: newId('share'),
        workspaceId: auth.workspaceId,
        demoId,
        token: randomToken(32),
        name: input.name ?? '',
        passwordHash,
        expiresAt: expiresAt || null,
        ...lists,
        createdById: auth.memberId,
        createdAt: now,
        updatedAt: now,
      });
      await emitEvent(tx, clock, {
        workspaceId: auth.workspaceId,
        kind: 'share.created',
        data: {
          share_id: created.id,
          demo_id: demoId,
          name: created.name,
          has_password: passwordHash !== null,
          expires_at: created.expiresAt?.toISOString() ?? null,
          require_identification: created.requireIdentification,
        },
      });
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'share.created',
        target: { type: 'share', id: created.id, label: created.name || null },
        changes: {
          demo_id: demoId,
          has_password: passwordHash !== null,
          expires_at: created.expiresAt?.toISOString() ?? null,
          require_identification: created.requireIdentification,
          allowed_emails: created.allowedEmails.length,
          allowed_domains: created.allowedDomains,
        },
      });
      return created;
    });
    // share_url of the demo may name the new link now.
    await deps.changes.announce(tags.demo(demoId));
    return share;
  }

  async function list(auth: AuthContext, demoId: string) {
    await requireDemo(auth, demoId);
    return repo.listShares(db, demoId);
  }

  async function get(auth: AuthContext, id: string) {
    const share = await repo.findShare(db, auth.workspaceId, id);
    if (!share) throw notFound('Share');
    return share;
  }

  async function update(auth: AuthContext, id: string, change: ShareChange, actor: Actor) {
    if (change.expiresAt !== undefined) checkExpiry(change.expiresAt);
    // Hashing is slow on purpose: do it before taking the row lock.
    const newHash = typeof change.password === 'string' ? await hashPassword(change.password) : undefined;
    const updated = await db.transaction(async (tx) => {
      const share = await lockWithDemo(tx, auth.workspaceId, id);
      const patch: Partial<ShareRow> = { updatedAt: clock.now() };
      if (change.name !== undefined) patch.name = change.name;
      if (change.expiresAt !== undefined) patch.expiresAt = change.expiresAt ? new Date(change.expiresAt) : null;
      if (change.requireIdentification !== undefined) patch.requireIdentification = change.requireIdentification;
      if (change.allowedEmails !== undefined) patch.allowedEmails = unique(change.allowedEmails);
      if (change.allowedDomains !== undefined) patch.allowedDomains = unique(change.allowedDomains);
      if (change.password !== undefined) {
        patch.passwordHash = newHash ?? null;
        // Every viewer unlocked with the old password must enter the new one.
        patch.passwordVersion = share.passwordVersion + 1;
      }
      checkLists({ ...share, ...patch });
      const updated = await repo.updateShare(tx, share.id, patch);
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'share.changed',
        target: { type: 'share', id: share.id, label: updated?.name || share.name || null },
        // Field names only: the password itself, or its hash, never reaches the log.
        changes: { demo_id: share.demoId, fields: Object.keys(change)
            .filter((k) => change[k as keyof ShareChange] !== undefined)
            .map((k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)),
        },
      });
      return updated;
    });
    await deps.changes.announce(tags.share(id), ...(updated ? [tags.demo(updated.demoId)] : []));
    return updated;
  }

  async function revoke(auth: AuthContext, id: string, actor: Actor) {
    const demoId = await db.transaction(async (tx) => {
      const share = await lockWithDemo(tx, auth.workspaceId, id);
      const now = clock.now();
      await repo.updateShare(tx, share.id, { revokedAt: now, updatedAt: now });
      // Sessions of a revoked link can never be used again: drop them rather than keep dead rows.
      await deps.viewers.dropSessions(tx, share.id);
      await emitEvent(tx, clock, {
        workspaceId: auth.workspaceId,
        kind: 'share.revoked',
        data: { share_id: share.id, demo_id: share.demoId, revoked_at: now.toISOString() },
      });
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'share.revoked',
        target: { type: 'share', id: share.id, label: share.name || null },
        changes: { demo_id: share.demoId },
      });
      return share.demoId;
    });
    await deps.changes.announce(tags.share(id), tags.demo(demoId));
  }

  async function accessLog(auth: AuthContext, id: string, page: { limit: number; offset: number }) {
    const share = await repo.findShareEvenRevoked(db, auth.workspaceId, id);
    if (!share) throw notFound('Share');
    return deps.viewers.accessLog(share.id, page);
  }

  return { create, list, get, update, revoke, accessLog };
}

export type SharesService = ReturnType<typeof createSharesService>;
