// An account's security events, written to the audit log of every workspace the user is an active member of.
import type { Actor } from '../audit/actor';
import type { AuditAction } from '../audit/audit-actions';
import { recordAudit } from '../audit/audit-recorder';
import type { Clock } from '../core/clock';
import type { Executor } from '../db/client';
import { activeMembersOfUser } from './accounts.repo';

interface AccountEvent {
  action: AuditAction;
  target: { type: 'user' | 'session'; id: string; label?: string | null };
  changes?: Record<string, unknown>;
}

/**
 * An account belongs to no single workspace, yet every workspace it is a member of depends on it: who
 * holds the password or the address holds access to that workspace's data. So an account's security event
 * (a sign-in, a failed one, a new password or address, a session ended) is written to the log of each
 * workspace where the user is an active member, in `tx`, so it commits with the change.
 */
export async function recordAccountEvent(tx: Executor, clock: Clock, actor: Actor, userId: string, event: AccountEvent) {
  for (const member of await activeMembersOfUser(tx, userId)) {
    await recordAudit(tx, clock, actor, { workspaceId: member.workspaceId, ...event });
  }
}
