// The leads API's shapes: a viewer's submission and its answer, a lead as members list it, the list's filters.
import { z } from 'zod';
import { listEnvelope } from '../core/envelope';
import { idSchema } from '../core/ids';
import { paginationQuery } from '../core/pagination';
import { text } from '../core/text';
import { DATE_FILTER_RANGE_TEXT, dateFilter, iso, resolveDateRange, timestamp } from '../core/time';
import type { LeadRow } from './leads.repo';

const VALUES_EXAMPLE = { email: 'jane@acme.com', name: 'Jane Doe', company_size: '51-200', consent: true, utm_source: 'newsletter' };

/** POST /v1/viewer/:token/leads. Types are checked field by field against the form (lead-values.ts), for a 422 per field. */
export const leadBody = z
  .object({
    id: z.uuid().meta({
      description: 'Made by the player for this submission: sending it again (a retry) answers the lead already made, with 200.',
    }),
    step_number: z.number().int().min(1).max(10_000).meta({ description: 'The `form` step of the published demo, as the viewer payload numbers it.' }),
    values: z
      .record(text().min(1).max(40), z.union([text().max(5000), z.boolean()]))
      .refine((v) => Object.keys(v).length <= 50, 'at most 50 values')
      .meta({
        description:
          'By field name: a string for text, email, phone, select and hidden fields (an empty string is no answer), a boolean for a checkbox.',
      }),
  })
  .strict()
  .meta({ examples: [{ id: '0b9c3a52-1f4e-4d47-9a57-2d1c6e8f4a10', step_number: 3, values: VALUES_EXAMPLE }] });

export const leadReceiptSchema = z
  .object({
    id: idSchema('lead'),
    identified: z.boolean().meta({
      description: 'Whether this submission named the viewer (their session and view now carry its e-mail address and name).',
    }),
    gate: z.enum(['password', 'identification', 'ready']).meta({
      description: 'The gate the viewer stands at now: `ready` once a gate form identified them (then fetch the demo).',
    }),
    session_token: z.string().optional().meta({
      description: 'Only when the submission started the viewer session (a gate form sent before any): as in the link state.',
    }),
  })
  .meta({
    id: 'LeadReceipt',
    examples: [{ id: 'lead_01jd3k7q9x8v2m4n6p0r5s7t9w', identified: true, gate: 'ready' }],
  });

const valueSchema = z.union([z.string(), z.boolean()]);

export const leadSchema = z
  .object({
    id: idSchema('lead'),
    demo: z.object({ id: idSchema('demo'), title: z.string() }),
    share: z
      .object({ id: idSchema('share'), name: z.string() })
      .nullable()
      .meta({ description: 'The link it came through; null once the link is deleted.' }),
    view_id: z.string().nullable().meta({ description: 'The view it was part of; null when sent before the view began (a gate form) or once the view is gone.' }),
    version: z.number().int().nullable().meta({ description: 'The published version whose form was filled in.' }),
    step_number: z.number().int(),
    step_id: z.string(),
    email: z.string().nullable().meta({ description: 'The form’s e-mail field, lower-cased; null when it has none or it was left empty.' }),
    name: z.string().nullable().meta({ description: 'The form’s `name` field, or `first_name` and `last_name`; null when none.' }),
    values: z.record(z.string(), valueSchema).meta({ description: 'Every answered field by name (checkboxes as booleans).' }),
    identified: z.boolean().meta({ description: 'Whether it identified the viewer (an address the link’s allow-lists accept).' }),
    created_at: timestamp,
  })
  .meta({
    id: 'Lead',
    examples: [
      {
        id: 'lead_01jd3k7q9x8v2m4n6p0r5s7t9w',
        demo: { id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w', title: 'Create and send an invoice' },
        share: { id: 'shr_01jd3k7q9x8v2m4n6p0r5s7t9w', name: 'Sent to Acme' },
        view_id: 'view_01jd3k7q9x8v2m4n6p0r5s7t9w',
        version: 2,
        step_number: 3,
        step_id: 'step_01jd3k7q9x8v2m4n6p0r5s7t9w',
        email: 'jane@acme.com',
        name: 'Jane Doe',
        values: VALUES_EXAMPLE,
        identified: true,
        created_at: '2026-11-21T10:00:00.000Z',
      },
    ],
  });
export type Lead = z.infer<typeof leadSchema>;

export const leadListEnvelope = listEnvelope(leadSchema);

const filters = {
  share_id: idSchema('share').optional().meta({ description: 'Only leads that came through this link.' }),
  start_date: dateFilter.optional().meta({ description: `Sent on or after: YYYY-MM-DD (UTC) or an ISO timestamp. ${DATE_FILTER_RANGE_TEXT}` }),
  end_date: dateFilter.optional().meta({ description: `Sent on or before: YYYY-MM-DD (inclusive, UTC) or an ISO timestamp. ${DATE_FILTER_RANGE_TEXT}` }),
};
const demoFilter = { demo_id: idSchema('demo').optional().meta({ description: 'Only leads of this demo.' }) };

export const listLeadsQuery = paginationQuery.extend({ ...demoFilter, ...filters }).strict();
export const listDemoLeadsQuery = paginationQuery.extend(filters).strict();
export const exportLeadsQuery = z.object({ ...demoFilter, ...filters }).strict();
export const exportDemoLeadsQuery = z.object(filters).strict();

/** What the repository filters on. */
export interface LeadFilters {
  demoId?: string;
  shareId?: string;
  from?: Date;
  to?: Date;
}

export function toLeadFilters(q: { demo_id?: string; share_id?: string; start_date?: string; end_date?: string }): LeadFilters {
  const { from, to } = resolveDateRange(q.start_date, q.end_date);
  return { demoId: q.demo_id, shareId: q.share_id, from, to };
}

export function toLead(row: LeadRow): Lead {
  return {
    id: row.id,
    demo: { id: row.demoId, title: row.demoTitle },
    share: row.shareId ? { id: row.shareId, name: row.shareName ?? '' } : null,
    view_id: row.viewId,
    version: row.version,
    step_number: row.stepNumber,
    step_id: row.stepId,
    email: row.email,
    name: row.name,
    values: row.values,
    identified: row.identified,
    created_at: iso(row.createdAt),
  };
}

/** The CSV's fixed columns; then one column per field name the exported leads answered (who first: email, name, first_name, last_name, company, phone; then by name). */
export const CSV_COLUMNS = ['created_at', 'demo_id', 'demo_title', 'share_id', 'share_name', 'email', 'name', 'step_number', 'lead_id'] as const;

/** Field columns: who the lead is first, in this order, then the other fields by name. */
const FIRST_FIELDS = ['email', 'name', 'first_name', 'last_name', 'company', 'phone'];
const fieldOrder = (a: string, b: string) => {
  const [x, y] = [FIRST_FIELDS.indexOf(a), FIRST_FIELDS.indexOf(b)];
  if (x !== y) return (x === -1 ? FIRST_FIELDS.length : x) - (y === -1 ? FIRST_FIELDS.length : y);
  return a < b ? -1 : a > b ? 1 : 0;
};

/** The CSV rows of some leads: a header, then one line's cells per lead (booleans as true/false, unanswered empty). */
export function toCsvRows(rows: readonly LeadRow[]): unknown[][] {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.values)))].sort(fieldOrder);
  const header = [...CSV_COLUMNS, ...names.map((n) => `field:${n}`)];
  const lines = rows.map((r) => [
    r.createdAt,
    r.demoId,
    r.demoTitle,
    r.shareId,
    r.shareName,
    r.email,
    r.name,
    r.stepNumber,
    r.id,
    ...names.map((n) => {
      const v = r.values[n];
      return typeof v === 'boolean' ? String(v) : v;
    }),
  ]);
  return [header, ...lines];
}
