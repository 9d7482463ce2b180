// What a link's management needs of the viewing domain (its viewer sessions and access log), declared here so
// that shares never imports viewing; viewing/link-viewers.ts implements it.
import type { Executor } from '../db/client';

/** Every gate decision a link's access log records (the `decision` column of share_access_log). */
export const ACCESS_DECISIONS = [
  'granted',
  'unlocked',
  'identified',
  'wrong_password',
  'blocked',
  'expired',
  'revoked',
  'not_allowed',
  'not_published',
  'password_required',
  'identification_required',
] as const;
export type AccessDecision = (typeof ACCESS_DECISIONS)[number];

/** One line of a link's access log, as the access-log route lists it. */
export interface AccessLogEntry {
  id: number;
  shareId: string;
  workspaceId: string;
  decision: AccessDecision;
  at: Date;
  ip: string | null;
  userAgent: string | null;
  viewerEmail: string | null;
  viewerName: string | null;
}

/**
 * Port: the viewers of a link, as its management sees them. The viewing module provides it
 * (`services.viewing.linkViewers`); the shares module reads it when called, as viewing is built after it.
 *
 * @example
 * // In a revoke's transaction: the link's sessions can never be used again.
 * await linkViewers.dropSessions(tx, share.id);
 * const { rows, total } = await linkViewers.accessLog(share.id, { limit: 50, offset: 0 });
 */
export interface LinkViewers {
  /** Deletes the link's viewer sessions, in the caller's transaction. */
  dropSessions(tx: Executor, shareId: string): Promise<void>;
  /** A page of the link's access log, newest first, with the total. */
  accessLog(shareId: string, page: { limit: number; offset: number }): Promise<{ rows: AccessLogEntry[]; total: number }>;
}
