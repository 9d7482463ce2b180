// The one way any domain writes an audit entry: in the change's own transaction, the actor labelled as they are now, secrets scrubbed from `changes`.
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Executor } from '../db/client';
import type { Actor } from './actor';
import type { AuditAction, AuditTargetType } from './audit-actions';
import { emitEntryEvent } from './audit-feed.repo';
import * as repo from './audit.repo';
import { toAuditEntry } from './audit.schemas';

export interface AuditEntry {
  /** The workspace whose log shows the entry. */
  workspaceId: string;
  action: AuditAction;
  target: { type: AuditTargetType; id: string | null; label?: string | null };
  /** A small summary of what changed: field names, old and new roles, statuses. Never a secret. */
  changes?: Record<string, unknown>;
}

// Defence in depth: a caller that passes a secret by mistake still does not get it into the log.
const SECRET_KEY = /secret|token|password|hash|digest|^key$|cookie|authorization/i;
const ALLOWED_FLAG = /^has_/;
const MAX_STRING = 300;
const MAX_ITEMS = 50;

/**
 * The first `max` UTF-16 units, less one when the cut would halve a surrogate pair: a lone surrogate makes
 * the jsonb column refuse the entry, and the change with it (an OAuth app with a long redirect URI ending
 * in an emoji at the cut answered 500; found while fuzzing).
 */
function cut(value: string, max: number): string {
  const code = value.charCodeAt(max - 1);
  return value.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** `changes` as stored: secret-looking keys dropped, long strings and lists cut, dates as ISO strings. */
export function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > MAX_STRING ? `${cut(value, MAX_STRING)}…` : value;
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value.toISOString();
  if (depth > 3) return '…';
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((v) => scrub(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (SECRET_KEY.test(key) && !ALLOWED_FLAG.test(key)) continue;
    if (v !== undefined) out[key] = scrub(v, depth + 1);
  }
  return out;
}

/**
 * Writes one audit entry, and its `audit.entry` webhook event where a webhook subscribes. Call it with the
 * transaction that makes the change (as `emitEvent`), so the change, its entry and its event commit or roll
 * back together. Webhook deliveries record no entry, so a failing `audit.entry` delivery cannot feed itself.
 */
export async function recordAudit(tx: Executor, clock: Clock, actor: Actor, entry: AuditEntry): Promise<void> {
  const who = await repo.resolveActor(tx, actor);
  const now = clock.now();
  const row = await repo.insertEntry(tx, {
    id: newId('auditEntry', now.getTime()),
    workspaceId: entry.workspaceId,
    actorType: actor.type,
    actorId: who.id,
    actorUserId: actor.userId,
    actorLabel: who.label,
    action: entry.action,
    targetType: entry.target.type,
    targetId: entry.target.id,
    targetLabel: entry.target.label ?? null,
    changes: scrub(entry.changes ?? {}) as Record<string, unknown>,
    ip: actor.ip,
    userAgent: actor.userAgent,
    createdAt: now,
  });
  await emitEntryEvent(tx, { id: newId('event', now.getTime()), workspaceId: entry.workspaceId, data: toAuditEntry(row), at: now });
}
