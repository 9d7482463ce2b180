// The outbox consumer: events a Slack destination asked for become its pending messages, in the dispatcher's transaction.
import { emailDomain, isFreeMailDomain } from '../core/free-mail';
import { newId } from '../core/ids';
import type { Executor } from '../db/client';
import { type OutboxConsumer, type OutboxEvent, wakeDeliveryWorkers } from '../events/outbox';
import { hubVisitorMessage, type SlackPayload, viewerAlertMessage } from './slack-blocks';
import * as repo from './slack.repo';
import type { SlackAlert } from './slack.tables';

/** What the consumer needs besides the transaction. */
export interface SlackConsumerDeps {
  /** The web app's address without a trailing slash: the buttons open it. */
  appUrl: string;
  maxAttempts: number;
}

type Data = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);

/**
 * Which alert an event is, if any: an identified viewer's view, a completion, a lead. Someone passing a
 * hub's form (its `viewer.identified`) is the hub's lead: a link's identification is told by its view.
 */
export function alertOf(event: Pick<OutboxEvent, 'kind' | 'data'>): Exclude<SlackAlert, 'daily_digest'> | null {
  const data = event.data as Data;
  if (event.kind === 'demo.viewed') return str(data.viewer_email) ? 'viewer_opened' : null;
  if (event.kind === 'demo.completed') return 'demo_finished';
  if (event.kind === 'lead.captured') return 'lead_captured';
  if (event.kind === 'viewer.identified') return hubOf(event) ? 'lead_captured' : null;
  return null;
}

/** The hub of a hub's `viewer.identified`; null for any other event. */
const hubOf = (event: Pick<OutboxEvent, 'kind' | 'data'>) => (event.kind === 'viewer.identified' ? str((event.data as Data).hub_id) : null);

/** "3 min 4 s" */
export function humanSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
}

function progress(alert: SlackAlert, data: Data, steps: number | null): string | null {
  const of = steps ? ` of ${steps}` : '';
  if (alert === 'viewer_opened') return steps ? `Just started: ${steps} steps` : 'Just started';
  if (alert === 'demo_finished') {
    const time = typeof data.completion_time === 'number' ? ` in ${humanSeconds(data.completion_time)}` : '';
    return `Finished ${steps ? `all ${steps} steps` : 'every step'}${time}`;
  }
  return typeof data.step_number === 'number' ? `Sent the form on step ${data.step_number}${of}` : null;
}

/** The company, most trusted first: what the lead typed, the personalised link's, the address's (unless free mail). */
function companyOf(email: string | null, answers: Data, linkVariables: Record<string, string> | undefined): string | null {
  for (const [key, value] of Object.entries(answers)) if (/^company|organi[sz]ation$/i.test(key) && str(value)) return String(value);
  if (linkVariables?.company?.trim()) return linkVariables.company;
  if (!email) return null;
  const domain = emailDomain(email);
  return domain && !isFreeMailDomain(domain) ? domain : null;
}

/**
 * Turns a batch of outbox events into pending Slack messages: for each live destination of the event's
 * workspace that asked for its alert (and, for a member's `mine`, only their demos and hubs), one message
 * built now, so every retry sends the same. Views by the workspace's own members are not alerts, nor is a
 * hub's form passed on a member's own (internal) visit. A destination
 * hears of what happened after it was saved, not of a backlog. Reads and writes through `tx` only.
 */
export function slackConsumer(deps: SlackConsumerDeps): OutboxConsumer {
  return async (tx: Executor, batch, now) => {
    const events = batch.flatMap((event) => {
      const alert = alertOf(event);
      return alert ? [{ event, alert, data: event.data as Data }] : [];
    });
    if (events.length === 0) return;
    const workspaceIds = [...new Set(events.map((e) => e.event.workspaceId))];
    const destinations = await repo.liveDestinationsIn(tx, workspaceIds);
    if (destinations.length === 0) return;
    const wanted = events.filter((e) => destinations.some((d) => d.workspaceId === e.event.workspaceId && d.alerts.includes(e.alert)));
    if (wanted.length === 0) return;
    const ids = (key: string) => [...new Set(wanted.map((e) => str(e.data[key])).filter((x): x is string => x !== null))];
    const demoIds = ids('demo_id');
    const linkIds = ids('share_id');
    const hubEvents = wanted.filter((e) => hubOf(e.event));
    const hubIds = [...new Set(hubEvents.map((e) => hubOf(e.event)!))];
    const hubTimes = hubEvents.flatMap((e) => (str(e.data.identified_at) ? [new Date(String(e.data.identified_at))] : []));
    // One after the other: a transaction is one connection.
    const demoRows = demoIds.length ? await repo.demoFacts(tx, demoIds) : [];
    const linkRows = linkIds.length ? await repo.linkFacts(tx, linkIds) : [];
    const hubRows = hubIds.length ? await repo.hubFacts(tx, hubIds) : [];
    const internalVisits = await repo.internalHubVisits(tx, hubIds, hubTimes);
    const names = await repo.workspaceNames(tx, workspaceIds);
    const unnamed = wanted.filter((e) => !str(e.data.viewer_name) && str(e.data.view_id)).map((e) => String(e.data.view_id));
    const viewerNames = unnamed.length ? await repo.viewerNames(tx, unnamed) : new Map<string, string>();
    const memberEmails = await repo.memberEmailsIn(tx, workspaceIds);
    const demos = new Map(demoRows.map((d) => [d.id, d]));
    const links = new Map(linkRows.map((l) => [l.id, l]));
    const hubs = new Map(hubRows.map((h) => [h.id, h]));
    const workspace = new Map(names.map((w) => [w.id, w.name]));
    const rows: repo.NewMessage[] = [];
    for (const { event, alert, data } of wanted) {
      const hubId = hubOf(event);
      const hub = hubId ? hubs.get(hubId) : undefined;
      const demo = hubId ? undefined : demos.get(String(data.demo_id));
      const about = hub ?? demo;
      if (!about) continue;
      const email = str(data.viewer_email) ?? str(data.email);
      if (email && memberEmails.has(`${event.workspaceId}:${email.toLowerCase()}`)) continue;
      if (hub && internalVisits.has(repo.hubVisitKey(hub.id, String(data.identified_at), email ?? ''))) continue;
      let payload: SlackPayload | undefined;
      for (const d of destinations) {
        if (d.workspaceId !== event.workspaceId || !d.alerts.includes(alert) || d.createdAt > event.createdAt) continue;
        // `mine`: the demos the member created, and the hubs they created.
        if (d.memberId && d.scope === 'mine' && about.createdById !== d.memberId) continue;
        const named = { ...data, viewer_name: str(data.viewer_name) ?? viewerNames.get(String(data.view_id)) ?? null };
        const name = workspace.get(event.workspaceId) ?? '';
        payload ??= hub ? hubPayload(deps, event, data, hub, name) : alertPayload(deps, event, alert, named, demo!, links.get(String(data.share_id)), name);
        rows.push({
          id: newId('slackMessage'),
          destinationId: d.id,
          workspaceId: event.workspaceId,
          subject: event.id,
          alert,
          summary: payload.text,
          body: JSON.stringify(payload),
          viewerEmail: email?.toLowerCase() ?? null,
          maxAttempts: deps.maxAttempts,
          nextAttemptAt: now,
          createdAt: now,
        });
      }
    }
    if ((await repo.insertMessages(tx, rows)) > 0) await wakeDeliveryWorkers(tx, 'slack');
  };
}

/** The hub form's fields (hubs.tables.ts HUB_LEAD_FIELDS) as the web app labels them. */
const HUB_FIELD_LABELS: Record<string, string> = { company: 'Company', job_title: 'Job title', phone: 'Phone' };

function hubPayload(deps: SlackConsumerDeps, event: OutboxEvent, data: Data, hub: { id: string; name: string }, workspace: string): SlackPayload {
  const email = str(data.viewer_email);
  const answers = (typeof data.values === 'object' && data.values ? data.values : {}) as Data;
  return hubVisitorMessage({
    workspace,
    hub: { name: hub.name, url: `${deps.appUrl}/hubs/${hub.id}#visitors` },
    viewer: { email, name: str(data.viewer_name) },
    company: companyOf(email, answers, undefined),
    // In the form's order: the event's values went through jsonb, which orders keys its own way.
    answers: [...new Set([...Object.keys(HUB_FIELD_LABELS), ...Object.keys(answers)])].flatMap((key) =>
      str(answers[key]) ? [[HUB_FIELD_LABELS[key] ?? key, String(answers[key])] as [string, string]] : [],
    ),
    at: event.occurredAt,
  });
}

function alertPayload(
  deps: SlackConsumerDeps,
  event: OutboxEvent,
  alert: Exclude<SlackAlert, 'daily_digest'>,
  data: Data,
  demo: { id: string; title: string; stepCount: number | null },
  link: { name: string; variables: Record<string, string> } | undefined,
  workspace: string,
): SlackPayload {
  const { appUrl } = deps;
  const email = str(data.viewer_email) ?? str(data.email);
  const answers = (alert === 'lead_captured' && typeof data.values === 'object' && data.values ? data.values : {}) as Data;
  const viewId = str(data.view_id);
  const analytics = `${appUrl}/demos/${demo.id}/analytics`;
  return viewerAlertMessage({
    alert,
    workspace,
    demo: { title: demo.title, url: analytics },
    viewer: { email, name: str(data.viewer_name) ?? str(data.name) },
    company: companyOf(email, answers, link?.variables),
    link: link ? link.name || 'Unnamed link' : null,
    progress: progress(alert, data, demo.stepCount === null ? null : Number(demo.stepCount)),
    answers: Object.entries(answers)
      .filter(([key]) => !/^(e-?mail|name)$/i.test(key))
      .map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]),
    // A lead sent before any step was played has no view: its journey is the leads page.
    journeyUrl: viewId ? `${analytics}?view=${encodeURIComponent(viewId)}` : `${appUrl}/leads`,
    leadsUrl: alert === 'lead_captured' && viewId ? `${appUrl}/leads` : undefined,
    at: event.occurredAt,
  });
}
