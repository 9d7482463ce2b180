// Which of a workspace's domains its links use: the admin's choice among the verified ones, else the oldest verified.
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { Clock } from '../core/clock';
import { conflict, notFound } from '../core/errors';
import type { Executor } from '../db/client';
import * as repo from './domains.repo';

/** A domain as the API answers it: with whether the workspace's links use it. */
export type DomainView = repo.DomainRow & { primary: boolean };

/** Rows of one workspace with their `primary`, from one look-up of the domain in effect. */
export async function withPrimary(db: Executor, workspaceId: string, rows: repo.DomainRow[]): Promise<DomainView[]> {
  const primary = rows.some((r) => r.status === 'verified') ? await repo.primaryDomain(db, workspaceId) : undefined;
  return rows.map((row) => ({ ...row, primary: row.id === primary?.id }));
}

/**
 * Makes one of the workspace's domains the one its links use, in the caller's transaction. Every domain of
 * the workspace is locked first (repo.lockWorkspaceDomains), so the check that the domain is verified and
 * the write see the same state whoever else is choosing, verifying or taking a name over; the unique index
 * stays the last word. 409 for a domain not verified: the request is right, the domain's state refuses it
 * (it would serve nothing), and the same request succeeds once it is verified. Choosing the domain already
 * in effect changes nothing. Returns the domain and the one links used before (to announce), if another.
 *
 * @example
 * const { row, previous } = await db.transaction((tx) => choosePrimary(tx, clock, auth.workspaceId, id, actor));
 */
export async function choosePrimary(tx: Executor, clock: Clock, workspaceId: string, id: string, actor: Actor) {
  const rows = await repo.lockWorkspaceDomains(tx, workspaceId);
  const target = rows.find((r) => r.id === id);
  if (!target) throw notFound('Domain');
  if (target.status !== 'verified') {
    throw conflict(`${target.hostname} is not verified: links can only use a verified domain. Create its DNS records and verify it first`);
  }
  const before = await repo.primaryDomain(tx, workspaceId);
  if (before?.id === target.id) return { row: target, previous: undefined };
  const now = clock.now();
  await repo.clearPrimary(tx, workspaceId, now);
  const row = (await repo.updateDomain(tx, target.id, { isPrimary: true, updatedAt: now })) as repo.DomainRow;
  const previous = rows.find((r) => r.id === before?.id);
  // One entry per domain whose `primary` changed, each readable alone in the domain's history.
  for (const [domain, from] of [...(previous ? [[previous, true] as const] : []), [target, false] as const]) {
    await recordAudit(tx, clock, actor, {
      workspaceId,
      action: 'domain.changed',
      target: { type: 'domain', id: domain.id, label: domain.hostname },
      changes: { primary: { from, to: !from } },
    });
  }
  return { row, previous };
}
