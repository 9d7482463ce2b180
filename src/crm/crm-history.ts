// A contact's activity from before HubSpot was connected, as one sync item each: the contact and one note that sums it up.
import { createHash } from 'node:crypto';
import { newId } from '../core/ids';
import type { HistoryRow } from './crm-history.repo';
import { escapeHtml, HUB_FIELD_PROPERTIES, LEAD_FIELD_PROPERTIES, listOf, noteToken } from './crm.notes';
import type { NewSyncItem } from './crm.repo';

/** The event kind of a history item in the sync log. */
export const HISTORY_KIND = 'history';
/** Lines of one note at most; the rest is counted ("and 12 more"). */
const NOTE_LINES = 40;

/**
 * The item's event id: the same for an address whenever it is asked (so a second backfill queues nothing
 * twice), letters and digits after the prefix (so the note's reference token is one token, and no two
 * addresses share one).
 */
export const historyEventId = (workspaceId: string, email: string) =>
  `hist_${createHash('sha256').update(`${workspaceId}\n${email}`).digest('hex').slice(0, 32)}`;

const day = (d: Date) => d.toISOString().slice(0, 10);

function line(row: HistoryRow, appUrl: string): string {
  const title = `“${escapeHtml(row.title)}”`;
  if (row.kind === 'views') {
    const times = row.count === 1 ? 'once' : `${row.count} times`;
    const link = `${appUrl}/demos/${encodeURIComponent(row.demoId)}/analytics`;
    return `<li>Viewed the demo <a href="${escapeHtml(link)}">${title}</a> ${times}${row.completed ? ', to the end' : ''} (last on ${day(row.at)})</li>`;
  }
  if (row.kind === 'lead') return `<li>Sent a form in the demo ${title} on ${day(row.at)}${listOf(row.values)}</li>`;
  return `<li>Identified on the demo hub ${title} on ${day(row.at)}${listOf(row.values)}</li>`;
}

/**
 * One pending item per address of `rows` (oldest activity first within a note): the newest name given, the
 * newest answers of hubs and lead forms as contact properties (crm.notes.ts), and a note listing what the address did, dated at its last act.
 */
export function historyItems(workspaceId: string, rows: readonly HistoryRow[], appUrl: string, now: Date): NewSyncItem[] {
  const byEmail = new Map<string, HistoryRow[]>();
  for (const row of rows) byEmail.set(row.email, [...(byEmail.get(row.email) ?? []), row]);
  return [...byEmail].map(([email, own]) => {
    const eventId = historyEventId(workspaceId, email);
    const sorted = [...own].sort((a, b) => a.at.getTime() - b.at.getTime());
    const last = sorted.at(-1)!;
    const properties: Record<string, string> = {};
    for (const row of sorted) {
      if (row.kind === 'views') continue;
      const byField = row.kind === 'hub' ? HUB_FIELD_PROPERTIES : LEAD_FIELD_PROPERTIES;
      for (const [field, value] of Object.entries(row.values)) {
        const property = byField[field.toLowerCase()];
        if (property && typeof value === 'string' && value.trim()) properties[property] = value.trim();
      }
    }
    const lines = sorted.slice(0, NOTE_LINES).map((row) => line(row, appUrl));
    const more = sorted.length > NOTE_LINES ? `<li>and ${sorted.length - NOTE_LINES} more</li>` : '';
    const noteBody =
      `<p><strong>Demoshare activity before HubSpot was connected</strong></p><ul>${lines.join('')}${more}</ul>` +
      `<p>Demoshare · ref ${noteToken(eventId)}</p>`;
    return {
      id: newId('crmSync'),
      workspaceId,
      eventId,
      eventKind: HISTORY_KIND,
      email,
      name: [...sorted].reverse().find((r) => r.name)?.name ?? null,
      properties,
      noteBody,
      occurredAt: last.at,
      status: 'pending' as const,
      nextAttemptAt: now,
      createdAt: now,
    };
  });
}
