/**
 * The rows a viewer leaves behind, found by e-mail within one workspace, and their removal. Every function
 * runs in the erasure's transaction. Addresses are compared in lower case: the viewer page stores them so,
 * and older rows may not be.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
/** A list as one JSON parameter: the same statement whatever its length, on pg and PGlite alike. */
const list = (values: string[]) => JSON.stringify(values);

export interface ViewerSession {
  id: string;
  anonymousId: string;
}

/** The viewer sessions identified with `email`: their visitor ids tie views begun before identification to it. */
export async function findSessions(db: Executor, workspaceId: string, email: string): Promise<ViewerSession[]> {
  const rows = rowsOf<{ id: string; anonymous_id: string }>(
    await db.execute(sql`
      select id, anonymous_id from viewer_sessions
      where workspace_id = ${workspaceId} and lower(viewer_email) = ${email}
      order by id
      for update`),
  );
  return rows.map((r) => ({ id: r.id, anonymousId: r.anonymous_id }));
}

export interface ErasedView {
  id: string;
  demoId: string;
  shareId: string | null;
  sessionId: string | null;
  anonymousId: string | null;
  /** The UTC day the view started: the day its roll-ups credit it to. */
  day: string;
}

/**
 * Deletes the views of `email`, and those of its sessions and visitor ids that never learnt the address
 * (a view begun before the viewer identified and idle since). Their step rows go with them (cascade), and
 * are counted first.
 */
export async function deleteViews(
  db: Executor,
  workspaceId: string,
  email: string,
  sessionIds: string[],
  anonymousIds: string[],
): Promise<{ views: ErasedView[]; stepRows: number }> {
  const match = sql`workspace_id = ${workspaceId} and (
      lower(viewer_email) = ${email}
      or session_id in (select json_array_elements_text(${list(sessionIds)}::json))
      or anonymous_id in (select json_array_elements_text(${list(anonymousIds)}::json)))`;
  const [steps] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from view_steps where view_id in (select id from views where ${match})`),
  );
  const rows = rowsOf<{ id: string; demo_id: string; share_id: string | null; session_id: string | null; anonymous_id: string | null; day: string }>(
    await db.execute(sql`
      delete from views where ${match}
      returning id, demo_id, share_id, session_id, anonymous_id, to_char((started_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day`),
  );
  return {
    views: rows.map((r) => ({
      id: r.id,
      demoId: r.demo_id,
      shareId: r.share_id,
      sessionId: r.session_id,
      anonymousId: r.anonymous_id,
      day: r.day,
    })),
    stepRows: Number(steps?.n ?? 0),
  };
}

/** Deletes the sessions and, first, the event ids they de-duplicate (counted apart: they cascade anyway). */
export async function deleteSessions(db: Executor, sessionIds: string[]): Promise<{ sessions: number; eventIds: number }> {
  if (sessionIds.length === 0) return { sessions: 0, eventIds: 0 };
  const ids = sql`(select json_array_elements_text(${list(sessionIds)}::json))`;
  const eventIds = rowsOf(await db.execute(sql`delete from ingested_events where session_id in ${ids} returning 1`)).length;
  const sessions = rowsOf(await db.execute(sql`delete from viewer_sessions where id in ${ids} returning 1`)).length;
  return { sessions, eventIds };
}

export async function deleteAccessLog(db: Executor, workspaceId: string, email: string): Promise<number> {
  const rows = await db.execute(
    sql`delete from share_access_log where workspace_id = ${workspaceId} and lower(viewer_email) = ${email} returning 1`,
  );
  return rowsOf(rows).length;
}

/**
 * Blanks the viewer in the outbox's events (demo.viewed, demo.completed, viewer.identified): their
 * `viewer_email` and, where the kind has one, `viewer_name` become null, as for an anonymous viewer. An
 * event not dispatched yet then fans out without them.
 */
export async function redactEvents(db: Executor, workspaceId: string, email: string): Promise<number> {
  const rows = await db.execute(sql`
    update events set data = data || jsonb_build_object('viewer_email', null)
      || case when data->'viewer_name' is not null then jsonb_build_object('viewer_name', null) else '{}'::jsonb end
    where workspace_id = ${workspaceId} and lower(data->>'viewer_email') = ${email}
    returning 1`);
  return rowsOf(rows).length;
}

export interface DeliveryBody {
  id: string;
  body: string;
  status: string;
}

/** Deliveries of the workspace whose body mentions `email` anywhere, locked against a worker's claim. */
export async function findDeliveries(db: Executor, workspaceId: string, email: string): Promise<DeliveryBody[]> {
  return rowsOf<DeliveryBody>(
    await db.execute(sql`
      select id, body, status from webhook_deliveries
      where workspace_id = ${workspaceId} and strpos(lower(body), ${email}) > 0
      order by id
      for update`),
  );
}

/**
 * Stores the redacted bodies. A delivery still waiting for an attempt is cancelled: its receiver would only
 * learn that someone, now nobody, viewed a demo. Delivered and failed ones keep their status; a redelivery
 * sends the redacted body.
 */
export async function redactDeliveries(
  db: Executor,
  rows: Array<{ id: string; body: string }>,
  now: Date,
): Promise<{ redacted: number; cancelled: number }> {
  if (rows.length === 0) return { redacted: 0, cancelled: 0 };
  // The rows are locked (findDeliveries): the status read there is the one changed here.
  const result = rowsOf<{ was_pending: boolean }>(
    await db.execute(sql`
      with x as (select * from json_to_recordset(${JSON.stringify(rows)}::json) as x(id text, body text)),
      before as (select d.id, d.status = 'pending' as was_pending from webhook_deliveries d join x on x.id = d.id)
      update webhook_deliveries as d set
        body = x.body,
        status = case when before.was_pending then 'cancelled' else d.status end,
        next_attempt_at = case when before.was_pending then null else d.next_attempt_at end,
        completed_at = case when before.was_pending then ${now}::timestamptz else d.completed_at end,
        last_error = case when before.was_pending then 'Cancelled: the viewer''s data was erased' else d.last_error end
      from x join before on before.id = x.id
      where d.id = x.id
      returning before.was_pending`),
  );
  return { redacted: result.length, cancelled: result.filter((r) => r.was_pending).length };
}

/**
 * Response excerpts of the workspace's attempts that echo the address (a receiver may answer with the body),
 * matched as a whole address (viewer-privacy.service.ts addressPattern).
 */
export async function redactAttemptExcerpts(db: Executor, workspaceId: string, addressPattern: string): Promise<number> {
  const rows = await db.execute(sql`
    update webhook_attempts set response_excerpt = null
    where response_excerpt ~* ${addressPattern}
      and delivery_id in (select id from webhook_deliveries where workspace_id = ${workspaceId})
    returning 1`);
  return rowsOf(rows).length;
}

/**
 * The notifications' "already told" rows about this viewer (`<share id>:<e-mail>`): they name the address.
 * Without them a member may be told again should the person come back and identify the same day.
 */
export async function deleteNotificationRecords(db: Executor, workspaceId: string, email: string): Promise<number> {
  const rows = await db.execute(sql`
    delete from notifications_sent
    where member_id in (select id from members where workspace_id = ${workspaceId})
      and lower(right(subject, ${email.length + 1})) = ${`:${email}`}
    returning 1`);
  return rowsOf(rows).length;
}
