// Outbox events as sync items: which events reach HubSpot, for which e-mail, and the note each one adds to the contact's timeline.
import { newId } from '../core/ids';
import type { Executor } from '../db/client';
import type { OutboxEvent } from '../events/outbox';
import * as repo from './crm.repo';

/**
 * The kinds the sync takes: identified viewers and leads become contacts; views, completions, leads and an
 * identification on a hub (which hub, what its lead form was answered) become notes.
 */
export const SYNCED_KINDS = ['viewer.identified', 'demo.viewed', 'demo.completed', 'lead.captured'] as const;

/**
 * The reference every note carries: letters and digits only, so HubSpot's search finds it as one token
 * (CONTAINS_TOKEN). It is how an attempt whose answer never came finds out whether its note was made.
 *
 * @example noteToken('evt_01jz...') // 'demoshare01jz...'
 */
export function noteToken(eventId: string): string {
  return `demoshare${eventId.replace(/[^a-zA-Z0-9]/g, '')}`;
}

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

type Data = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** The e-mail an event is about, lower-cased; null for an anonymous view (nothing to sync). */
export function emailOf(event: Pick<OutboxEvent, 'kind' | 'data'>): string | null {
  const data = event.data as Data;
  const email = event.kind === 'lead.captured' ? str(data.email) : str(data.viewer_email);
  return email ? email.toLowerCase() : null;
}

function nameOf(event: Pick<OutboxEvent, 'kind' | 'data'>): string | null {
  const data = event.data as Data;
  return str(event.kind === 'lead.captured' ? data.name : data.viewer_name);
}

/** A hub's lead-form fields (`values` of a hub's `viewer.identified`) as HubSpot's default contact properties. */
export const HUB_FIELD_PROPERTIES: Record<string, string> = { company: 'company', job_title: 'jobtitle', phone: 'phone' };

/** A hub's identification (docs/hubs.md): `viewer.identified` with `hub_id`, and no demo. */
const isHubIdentification = (event: Pick<OutboxEvent, 'kind' | 'data'>) => event.kind === 'viewer.identified' && str((event.data as Data).hub_id) !== null;

/**
 * A demo's lead-form fields whose names say what HubSpot's default contact properties hold (docs/crm.md):
 * the form's names are the editor's, so only these plain ones are matched; every answer is in the note anyway.
 */
export const LEAD_FIELD_PROPERTIES: Record<string, string> = {
  ...HUB_FIELD_PROPERTIES,
  company_name: 'company',
  jobtitle: 'jobtitle',
  phone_number: 'phone',
  mobile: 'mobilephone',
  website: 'website',
  city: 'city',
  country: 'country',
};

/**
 * The contact properties an event sets besides e-mail and name: a hub's lead-form answers, and a demo
 * lead's answers to fields named as in LEAD_FIELD_PROPERTIES, the ones given (text, not a checkbox).
 */
export function contactProperties(event: Pick<OutboxEvent, 'kind' | 'data'>): Record<string, string> {
  const values = (event.data as Data).values;
  const byField = isHubIdentification(event) ? HUB_FIELD_PROPERTIES : event.kind === 'lead.captured' ? LEAD_FIELD_PROPERTIES : null;
  if (!byField || !values || typeof values !== 'object') return {};
  const properties: Record<string, string> = {};
  for (const [field, value] of Object.entries(values as Data)) {
    const property = byField[field.toLowerCase()];
    const given = str(value);
    if (property && given) properties[property] = given;
  }
  return properties;
}

export const listOf = (values: unknown) => {
  const entries = values && typeof values === 'object' ? Object.entries(values as Data) : [];
  const lines = entries.map(([k, v]) => `<li>${escapeHtml(k)}: ${escapeHtml(typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v))}</li>`).join('');
  return lines ? `<ul>${lines}</ul>` : '';
};

/** The note's HTML (HubSpot shows hs_note_body as rich text), or null for a kind that only upserts the contact. */
export function noteBody(event: Pick<OutboxEvent, 'id' | 'kind' | 'data'>, title: string, appUrl: string): string | null {
  const data = event.data as Data;
  if (isHubIdentification(event)) {
    // No demo to name: the hub, and where its visitors are listed.
    const hub = `“${escapeHtml(str(data.hub_name) ?? 'a demo hub')}”`;
    const link = `${appUrl}/hubs/${encodeURIComponent(String(data.hub_id))}`;
    const what = `<p><strong>Identified on the demo hub</strong> ${hub}.</p>${listOf(data.values)}`;
    return `${what}<p>Demoshare · <a href="${escapeHtml(link)}">the hub’s visitors</a> · ref ${noteToken(event.id)}</p>`;
  }
  const demo = `“${escapeHtml(title)}”`;
  let what: string;
  if (event.kind === 'demo.viewed') what = `<p><strong>Viewed the demo</strong> ${demo}.</p>`;
  else if (event.kind === 'demo.completed') {
    const seconds = typeof data.completion_time === 'number' ? ` in ${Math.round(data.completion_time)} s` : '';
    what = `<p><strong>Finished the demo</strong> ${demo}${seconds}.</p>`;
  } else if (event.kind === 'lead.captured') {
    what = `<p><strong>Sent a form</strong> in the demo ${demo}.</p>${listOf(data.values)}`;
  } else return null;
  const link = `${appUrl}/demos/${encodeURIComponent(String(data.demo_id ?? ''))}/analytics`;
  return `${what}<p>Demoshare · <a href="${escapeHtml(link)}">the demo’s analytics</a> · ref ${noteToken(event.id)}</p>`;
}

/**
 * The CRM's outbox consumer: in the dispatcher's transaction, each event of a synced kind with an e-mail,
 * in a workspace connected to HubSpot since before it happened, becomes a pending item. Nothing is sent
 * here; the sync worker does that, and a NOTIFY at commit wakes it.
 */
export function crmOutboxConsumer(appUrl: string, wake: (tx: Executor) => Promise<void>) {
  return async (tx: Executor, batch: readonly OutboxEvent[], now: Date): Promise<void> => {
    const synced = batch.filter((e) => (SYNCED_KINDS as readonly string[]).includes(e.kind) && emailOf(e));
    if (synced.length === 0) return;
    const connections = await repo.connectionsIn(tx, [...new Set(synced.map((e) => e.workspaceId))]);
    const since = new Map(connections.map((c) => [c.workspaceId, c.connectedAt]));
    const events = synced.filter((e) => {
      const at = since.get(e.workspaceId);
      return at !== undefined && e.createdAt >= at;
    });
    if (events.length === 0) return;
    const demoIds = events.map((e) => str((e.data as Data).demo_id)).filter((id): id is string => id !== null);
    const titles = await repo.demoTitles(tx, [...new Set(demoIds)]);
    await repo.insertItems(
      tx,
      events.map((e) => ({
        id: newId('crmSync'),
        workspaceId: e.workspaceId,
        eventId: e.id,
        eventKind: e.kind,
        email: emailOf(e)!,
        name: nameOf(e),
        properties: contactProperties(e),
        noteBody: noteBody(e, titles.get(String((e.data as Data).demo_id ?? '')) ?? 'a demo', appUrl),
        occurredAt: e.occurredAt,
        status: 'pending' as const,
        nextAttemptAt: now,
        createdAt: now,
      })),
    );
    await wake(tx);
  };
}
