// One claimed batch of a workspace's items through HubSpot: contacts upserted, notes found or created, each item settled.
import { nextAttemptAt } from '../core/delivery/retry-schedule';
import type { HubSpotAnswer, HubSpotClient } from './hubspot.client';
import { errorsOf, HUBSPOT_SEARCH_GROUPS, resultsOf } from './hubspot.client';
import type { ItemSettlement, SyncItemRow } from './crm.repo';
import { noteToken } from './crm.notes';

/** What the batch came to: each item's settlement, and what the connection must do (pause, wait). */
export interface SyncOutcome {
  items: Map<string, ItemSettlement>;
  pause?: string;
  waitUntil?: Date;
}

export interface SyncSettings {
  /** The wait before each retry (WEBHOOK_RETRY_DELAYS); past its end an item fails. */
  retryDelays: number[];
  now: () => Date;
  random?: () => number;
}

/**
 * Syncs one batch (at most 100 items of one workspace): upserts their contacts by e-mail in one request,
 * looks up the notes an unanswered earlier attempt may have created (by their reference token), creates the
 * other notes in one request, and says what became of each item. A 401/403 pauses, a 429 waits without
 * spending an attempt, a 5xx or network error spends one, and a 400 is retried item by item so that one
 * input HubSpot refuses does not hold back the others.
 */
export async function syncBatch(client: HubSpotClient, items: SyncItemRow[], settings: SyncSettings): Promise<SyncOutcome> {
  const outcome: SyncOutcome = { items: new Map() };
  const state = new Map(items.map((i) => [i.id, { ...i }]));
  const stop = (answer: Exclude<HubSpotAnswer, { kind: 'ok' }>, during: 'contacts' | 'notes', left: SyncItemRow[]) => {
    settleFailure(outcome, answer, during, left, state, settings);
  };

  // 1. Contacts, one input per e-mail (HubSpot refuses a batch naming one id twice).
  const byEmail = new Map<string, SyncItemRow[]>();
  for (const item of items) byEmail.set(item.email, [...(byEmail.get(item.email) ?? []), item]);
  const contacts = [...byEmail.entries()].map(([email, group]) => ({ email, properties: { ...otherProperties(group), ...nameProperties(group) } }));
  const upserted = await client.upsertContacts(contacts);
  if (upserted.kind !== 'ok') {
    if (upserted.kind === 'invalid' && items.length > 1 && byEmail.size > 1) return oneByOne(client, byEmail, settings);
    stop(upserted, 'contacts', items);
    return outcome;
  }
  const ids = new Map(resultsOf(upserted.body).map((r) => [String(r.properties.email ?? '').toLowerCase(), r]));
  const partial = errorsOf(upserted.body);
  const withContact: SyncItemRow[] = [];
  for (const item of items) {
    const found = ids.get(item.email);
    if (!found) {
      outcome.items.set(item.id, failed(item, upserted.status, partial ?? 'HubSpot returned no contact for this e-mail', settings));
      continue;
    }
    const s = state.get(item.id)!;
    s.contactId = found.id;
    // An item synced before keeps what it learnt first: whether its event created the contact.
    s.contactCreated = item.contactCreated ?? found.new ?? false;
    withContact.push(s);
  }

  // 2. Notes an unanswered attempt may have created: found by their token, never made twice.
  const needNote = withContact.filter((i) => i.noteBody && !i.noteId);
  const unsure = needNote.filter((i) => i.noteUnsure);
  for (let k = 0; k < unsure.length; k += HUBSPOT_SEARCH_GROUPS) {
    const slice = unsure.slice(k, k + HUBSPOT_SEARCH_GROUPS);
    const found = await client.searchNotes(slice.map((i) => noteToken(i.eventId)));
    if (found.kind !== 'ok') {
      stop(found, 'notes', needNote.filter((i) => !outcome.items.has(i.id)));
      return outcome;
    }
    for (const note of resultsOf(found.body)) {
      const match = slice.find((i) => String(note.properties.hs_note_body ?? '').includes(noteToken(i.eventId)));
      if (match) match.noteId = note.id;
    }
    for (const i of slice) i.noteUnsure = false;
  }

  // 3. The other notes, in one request, matched back by their token (HubSpot does not promise the order).
  const toCreate = needNote.filter((i) => !i.noteId);
  if (toCreate.length > 0) {
    const created = await client.createNotes(
      toCreate.map((i) => ({ body: i.noteBody!, timestamp: i.occurredAt, contactId: i.contactId! })),
    );
    if (created.kind !== 'ok') {
      if (created.kind === 'invalid' && toCreate.length > 1) {
        for (const i of toCreate) {
          const alone = await client.createNotes([{ body: i.noteBody!, timestamp: i.occurredAt, contactId: i.contactId! }]);
          if (alone.kind === 'ok') i.noteId = resultsOf(alone.body)[0]?.id ?? null;
          else if (alone.kind === 'invalid') outcome.items.set(i.id, failed(i, alone.status, alone.message, settings, { final: true }));
          else {
            stop(alone, 'notes', toCreate.filter((x) => !x.noteId && !outcome.items.has(x.id)));
            break;
          }
        }
      } else {
        stop(created, 'notes', toCreate);
      }
    } else {
      const errors = errorsOf(created.body);
      for (const note of resultsOf(created.body)) {
        const match = toCreate.find((i) => String(note.properties.hs_note_body ?? '').includes(noteToken(i.eventId)));
        if (match) match.noteId = note.id;
      }
      for (const i of toCreate) {
        if (!i.noteId && !outcome.items.has(i.id)) outcome.items.set(i.id, failed(i, created.status, errors ?? 'HubSpot returned no note for this event', settings));
      }
    }
  }

  // 4. What is done is done: the contact upserted and the note (where there is one) recorded.
  const now = settings.now();
  for (const i of withContact) {
    if (outcome.items.has(i.id)) continue;
    outcome.items.set(i.id, {
      status: 'succeeded',
      contactId: i.contactId,
      contactCreated: i.contactCreated,
      noteId: i.noteId,
      noteUnsure: false,
      nextAttemptAt: null,
      lastStatusCode: null,
      lastError: null,
      completedAt: now,
    });
  }
  return outcome;
}

/** After a 400 on the contacts: each e-mail alone, so the one HubSpot refuses fails and the others go through. */
async function oneByOne(client: HubSpotClient, byEmail: Map<string, SyncItemRow[]>, settings: SyncSettings): Promise<SyncOutcome> {
  const outcome: SyncOutcome = { items: new Map() };
  for (const group of byEmail.values()) {
    const part = await syncBatch(client, group, settings);
    for (const [id, s] of part.items) outcome.items.set(id, s);
    if (part.pause || part.waitUntil) {
      outcome.pause = part.pause;
      outcome.waitUntil = part.waitUntil;
      break;
    }
  }
  return outcome;
}

/** What a request that did not succeed leaves on the items it was for (and on those not reached yet). */
function settleFailure(
  outcome: SyncOutcome,
  answer: Exclude<HubSpotAnswer, { kind: 'ok' }>,
  during: 'contacts' | 'notes',
  left: SyncItemRow[],
  state: Map<string, SyncItemRow>,
  settings: SyncSettings,
) {
  const now = settings.now();
  const keep = (i: SyncItemRow): ItemSettlement => {
    const s = state.get(i.id) ?? i;
    return { contactId: s.contactId, contactCreated: s.contactCreated, noteId: s.noteId };
  };
  if (answer.kind === 'refused') {
    outcome.pause = `HubSpot refused the token (HTTP ${answer.status}: ${answer.message})`;
    for (const i of left) {
      outcome.items.set(i.id, { ...keep(i), status: 'pending', nextAttemptAt: now, lastStatusCode: answer.status, lastError: `paused: ${outcome.pause}` });
    }
    return;
  }
  if (answer.kind === 'rate_limited') {
    outcome.waitUntil = new Date(now.getTime() + answer.waitMs);
    for (const i of left) {
      outcome.items.set(i.id, {
        ...keep(i),
        status: 'pending',
        nextAttemptAt: outcome.waitUntil,
        lastStatusCode: 429,
        lastError: `rate limited by HubSpot (${answer.message}); waiting ${Math.ceil(answer.waitMs / 1000)} s`,
      });
    }
    return;
  }
  for (const i of left) {
    // A note request with no answer (or a 5xx) may have been carried out: the next attempt searches first.
    const unsure = during === 'notes' && answer.kind === 'unavailable' && !!i.noteBody && !(state.get(i.id) ?? i).noteId;
    outcome.items.set(i.id, {
      ...keep(i),
      ...failed(i, answer.status, answer.message, settings, {
        final: answer.kind === 'invalid',
        retryAfterMs: answer.kind === 'unavailable' ? answer.retryAfterMs : undefined,
      }),
      ...(unsure ? { noteUnsure: true } : {}),
    });
  }
}

/** A failed attempt: retried on the schedule while it lasts (never for a refused input), else failed for good. */
function failed(
  item: SyncItemRow,
  status: number | null,
  message: string,
  settings: SyncSettings,
  options: { final?: boolean; retryAfterMs?: number } = {},
): ItemSettlement {
  const attempts = item.attempts + 1;
  const now = settings.now();
  // A Retry-After on a 503 moves the next attempt, never adds one: the schedule still decides when to give up.
  const next = options.final ? null : nextAttemptAt(attempts, settings.retryDelays, now, options.retryAfterMs ?? null, settings.random);
  if (!next) return { status: 'failed', attempts, nextAttemptAt: null, lastStatusCode: status, lastError: message, completedAt: now };
  return { status: 'pending', attempts, nextAttemptAt: next, lastStatusCode: status, lastError: message };
}

/** The items' other properties (a hub's lead form: company, jobtitle, phone), each the latest one given. */
function otherProperties(group: SyncItemRow[]): Record<string, string> {
  return Object.assign({}, ...group.map((i) => i.properties ?? {}));
}

/** firstname/lastname from the latest name given, split at the first space; none at all when no name was given. */
function nameProperties(group: SyncItemRow[]): Record<string, string> {
  const name = [...group].reverse().find((i) => i.name)?.name?.trim();
  if (!name) return {};
  const space = name.indexOf(' ');
  return space < 0 ? { firstname: name } : { firstname: name.slice(0, space), lastname: name.slice(space + 1).trim() };
}
