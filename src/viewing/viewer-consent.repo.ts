// The consent of an embedding page (docs/consent.md): a session opened before it gets its visitor id.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { viewerSessions, views } from './viewing.tables';

/** Gives the session a visitor id if it has none; answers the one it now has. */
export async function giveSessionVisitorId(db: Executor, sessionId: string, anonymousId: string) {
  await db
    .update(viewerSessions)
    .set({ anonymousId })
    .where(and(eq(viewerSessions.id, sessionId), isNull(viewerSessions.anonymousId)));
  const [row] = await db.select({ anonymousId: viewerSessions.anonymousId }).from(viewerSessions).where(eq(viewerSessions.id, sessionId));
  return row?.anonymousId ?? null;
}

/**
 * The session's view, when it began without a visitor id: it gets the session's now. Answers what its
 * day's viewer set needs (nothing when the view already had one, or does not exist yet).
 */
export async function giveViewVisitorId(db: Executor, sessionId: string, anonymousId: string) {
  const [row] = await db
    .update(views)
    .set({ anonymousId })
    .where(and(eq(views.sessionId, sessionId), isNull(views.anonymousId)))
    .returning({
      workspaceId: views.workspaceId,
      demoId: views.demoId,
      shareId: sql<string>`coalesce(${views.shareId}, '')`,
      version: sql<number>`coalesce(${views.version}, 0)`.mapWith(Number),
      internal: views.internal,
      viewerEmail: views.viewerEmail,
      startedAt: views.startedAt,
    });
  return row;
}
