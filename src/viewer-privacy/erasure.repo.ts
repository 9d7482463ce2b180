/**
 * The rows a viewer leaves behind, found by e-mail within one workspace, and their removal. Every function
 * runs in the erasure's transaction. Addresses are compared in lower case: the viewer page stores them so,
 * and older rows may not be.
 */
import { sql } from 'drizzle-orm';
import { members } from '../accounts/accounts.tables';
import type { Executor } from '../db/client';
import { events } from '../events/events.tables';
import { crmSyncItems } from '../crm/crm.tables';
import { leads } from '../leads/leads.tables';
import { notificationsSent } from '../notifications/notifications.tables';
import { ingestedEvents, shareAccessLog, viewerSessions, views, viewSteps } from '../viewing/viewing.tables';
import { webhookAttempts, webhookDeliveries } from '../webhooks/webhooks.tables';
import { slackMessages } from '../slack/slack.tables';
import { hubSessions } from '../hubs/hubs.tables';
import { columnName } from '../db/column-name';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
/** A list as one JSON parameter: the same statement whatever its length, on pg and PGlite alike. */
const list = (values: string[]) => JSON.stringify(values);

export interface ViewerSession {
  id: string;
  /** Null: a session opened before consent (docs/consent.md). */
  anonymousId: string | null;
}

/** The viewer sessions identified with `email`: their visitor ids tie views begun before identification to it. */
export async function findSessions(db: Executor, workspaceId: string, email: string): Promise<ViewerSession[]> {
  const rows = rowsOf<{ id: string; anonymous_id: string | null }>(
    await db.execute(sql`
      select ${viewerSessions.id}, ${viewerSessions.anonymousId} from ${viewerSessions}
      where ${viewerSessions.workspaceId} = ${workspaceId} and lower(${viewerSessions.viewerEmail}) = ${email}
      order by ${viewerSessions.id}
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
  /** What the path roll-ups counted for it (views.path_marks), with the key they counted it under. */
  version: number;
  internal: boolean;
  completed: boolean;
  pathMarks: string[];
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
  const match = sql`${views.workspaceId} = ${workspaceId} and (
      lower(${views.viewerEmail}) = ${email}
      or ${views.sessionId} in (select json_array_elements_text(${list(sessionIds)}::json))
      or ${views.anonymousId} in (select json_array_elements_text(${list(anonymousIds)}::json)))`;
  const [steps] = rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(*)::int as n from ${viewSteps} where ${viewSteps.viewId} in (select ${views.id} from ${views} where ${match})`,
    ),
  );
  const rows = rowsOf<{
    id: string;
    demo_id: string;
    share_id: string | null;
    session_id: string | null;
    anonymous_id: string | null;
    day: string;
    version: number;
    internal: boolean;
    completed: boolean;
    path_marks: string[];
  }>(
    await db.execute(sql`
      delete from ${views} where ${match}
      returning ${views.id}, ${views.demoId}, ${views.shareId}, ${views.sessionId}, ${views.anonymousId},
        to_char((${views.startedAt} at time zone 'UTC')::date, 'YYYY-MM-DD') as day,
        coalesce(${views.version}, 0) as version, ${views.internal}, ${views.completed}, ${views.pathMarks}`),
  );
  return {
    views: rows.map((r) => ({
      id: r.id,
      demoId: r.demo_id,
      shareId: r.share_id,
      sessionId: r.session_id,
      anonymousId: r.anonymous_id,
      day: r.day,
      version: Number(r.version),
      internal: r.internal,
      completed: r.completed,
      pathMarks: r.path_marks ?? [],
    })),
    stepRows: Number(steps?.n ?? 0),
  };
}

/** Deletes the sessions and, first, the event ids they de-duplicate (counted apart: they cascade anyway). */
export async function deleteSessions(db: Executor, sessionIds: string[]): Promise<{ sessions: number; eventIds: number }> {
  if (sessionIds.length === 0) return { sessions: 0, eventIds: 0 };
  const ids = sql`(select json_array_elements_text(${list(sessionIds)}::json))`;
  const eventIds = rowsOf(await db.execute(sql`delete from ${ingestedEvents} where ${ingestedEvents.sessionId} in ${ids} returning 1`)).length;
  const sessions = rowsOf(await db.execute(sql`delete from ${viewerSessions} where ${viewerSessions.id} in ${ids} returning 1`)).length;
  return { sessions, eventIds };
}

export async function deleteAccessLog(db: Executor, workspaceId: string, email: string): Promise<number> {
  const rows = await db.execute(
    sql`delete from ${shareAccessLog}
      where ${shareAccessLog.workspaceId} = ${workspaceId} and lower(${shareAccessLog.viewerEmail}) = ${email} returning 1`,
  );
  return rowsOf(rows).length;
}

/**
 * Blanks the viewer in the outbox's events (demo.viewed, demo.completed, viewer.identified): their
 * `viewer_email` and, where the kind has one, `viewer_name` become null, as for an anonymous viewer, and a
 * hub's lead-form `values` of a `viewer.identified` become empty. An event not dispatched yet then fans out
 * without them.
 */
export async function redactEvents(db: Executor, workspaceId: string, email: string): Promise<number> {
  const rows = await db.execute(sql`
    update ${events} set ${columnName(events.data)} = ${events.data} || jsonb_build_object('viewer_email', null)
      || case when ${events.data}->'viewer_name' is not null then jsonb_build_object('viewer_name', null) else '{}'::jsonb end
      || case when ${events.kind} = 'viewer.identified' and ${events.data}->'values' is not null
        then jsonb_build_object('values', '{}'::jsonb) else '{}'::jsonb end
    where ${events.workspaceId} = ${workspaceId} and lower(${events.data}->>'viewer_email') = ${email}
    returning 1`);
  return rowsOf(rows).length;
}

/**
 * Deletes the leads the viewer sent: those with the address, and those of their sessions (a form whose
 * e-mail field was left empty). Before the sessions go, whose deletion would only unlink them.
 */
export async function deleteLeads(db: Executor, workspaceId: string, email: string, sessionIds: string[]): Promise<number> {
  const rows = await db.execute(sql`
    delete from ${leads}
    where ${leads.workspaceId} = ${workspaceId} and (
      lower(${leads.email}) = ${email}
      or ${leads.sessionId} in (select json_array_elements_text(${list(sessionIds)}::json)))
    returning 1`);
  return rowsOf(rows).length;
}

/** Blanks the viewer in the outbox's `lead.captured` events: e-mail, name and every answer. */
export async function redactLeadEvents(db: Executor, workspaceId: string, email: string): Promise<number> {
  const rows = await db.execute(sql`
    update ${events} set ${columnName(events.data)} = ${events.data} || jsonb_build_object('email', null, 'name', null, 'values', '{}'::jsonb)
    where ${events.workspaceId} = ${workspaceId} and ${events.kind} = 'lead.captured' and lower(${events.data}->>'email') = ${email}
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
      select ${webhookDeliveries.id}, ${webhookDeliveries.body}, ${webhookDeliveries.status} from ${webhookDeliveries}
      where ${webhookDeliveries.workspaceId} = ${workspaceId} and strpos(lower(${webhookDeliveries.body}), ${email}) > 0
      order by ${webhookDeliveries.id}
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
  const d = webhookDeliveries;
  const result = rowsOf<{ was_pending: boolean }>(
    await db.execute(sql`
      with x as (select * from json_to_recordset(${JSON.stringify(rows)}::json) as x(id text, body text)),
      before as (select ${d.id} as id, ${d.status} = 'pending' as was_pending from ${d} join x on x.id = ${d.id})
      update ${d} set
        ${columnName(d.body)} = x.body,
        ${columnName(d.status)} = case when before.was_pending then 'cancelled' else ${d.status} end,
        ${columnName(d.nextAttemptAt)} = case when before.was_pending then null else ${d.nextAttemptAt} end,
        ${columnName(d.completedAt)} = case when before.was_pending then ${now}::timestamptz else ${d.completedAt} end,
        ${columnName(d.lastError)} = case when before.was_pending then 'Cancelled: the viewer''s data was erased' else ${d.lastError} end
      from x join before on before.id = x.id
      where ${d.id} = x.id
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
    update ${webhookAttempts} set ${columnName(webhookAttempts.responseExcerpt)} = null
    where ${webhookAttempts.responseExcerpt} ~* ${addressPattern}
      and ${webhookAttempts.deliveryId} in
        (select ${webhookDeliveries.id} from ${webhookDeliveries} where ${webhookDeliveries.workspaceId} = ${workspaceId})
    returning 1`);
  return rowsOf(rows).length;
}

/**
 * The notifications' "already told" rows about this viewer (`<share id>:<e-mail>`): they name the address.
 * Without them a member may be told again should the person come back and identify the same day.
 */
export async function deleteNotificationRecords(db: Executor, workspaceId: string, email: string): Promise<number> {
  const rows = await db.execute(sql`
    delete from ${notificationsSent}
    where ${notificationsSent.memberId} in (select ${members.id} from ${members} where ${members.workspaceId} = ${workspaceId})
      and lower(right(${notificationsSent.subject}, ${email.length + 1})) = ${`:${email}`}
    returning 1`);
  return rowsOf(rows).length;
}

/**
 * Slack alerts that name the viewer, sent or waiting (src/slack): the alert about them, and a digest that
 * lists them. Deleted: a message waiting for a retry is then never sent.
 */
export async function deleteSlackMessages(db: Executor, workspaceId: string, email: string): Promise<number> {
  const rows = await db.execute(sql`
    delete from ${slackMessages}
    where ${slackMessages.workspaceId} = ${workspaceId}
      and (${slackMessages.viewerEmail} = ${email} or strpos(lower(${slackMessages.body}), ${email}) > 0)
    returning 1`);
  return rowsOf(rows).length;
}

/** The HubSpot sync items about this viewer (their e-mail, name and notes' text): the sync log forgets them too. */
export async function deleteCrmSyncItems(db: Executor, workspaceId: string, email: string): Promise<number> {
  const rows = await db.execute(sql`
    delete from ${crmSyncItems}
    where ${crmSyncItems.workspaceId} = ${workspaceId} and ${crmSyncItems.email} = ${email}
    returning 1`);
  return rowsOf(rows).length;
}

/**
 * The viewer's sessions on the workspace's hubs (src/hubs): their name, e-mail and lead-form answers. The
 * demos they opened stay counted (hub_opens lose the session, not the count).
 */
export async function deleteHubSessions(db: Executor, workspaceId: string, email: string): Promise<number> {
  const rows = await db.execute(sql`
    delete from ${hubSessions}
    where ${hubSessions.workspaceId} = ${workspaceId} and lower(${hubSessions.viewerEmail}) = ${email}
    returning 1`);
  return rowsOf(rows).length;
}
