// The wire shape of a hub's identified visitors: the list's item, its filters, and the CSV's rows.
import { z } from 'zod';
import { listEnvelope } from '../core/envelope';
import { idSchema } from '../core/ids';
import { paginationQuery } from '../core/pagination';
import { DATE_FILTER_RANGE_TEXT, dateFilter, iso, resolveDateRange, timestamp } from '../core/time';
import type { HubVisitor } from './hub-visitors.service';
import type { VisitorFilter } from './hub-visitors.repo';
import { HUB_LEAD_FIELDS } from './hubs.tables';

const leadValue = (label: string) => z.string().optional().meta({ description: `${label}, when the hub’s lead form asked for it.` });

export const hubVisitorSchema = z
  .object({
    email: z.string().meta({ description: 'The work e-mail address given on the hub’s gate form, lower-cased.' }),
    name: z.string().nullable().meta({ description: 'The name given with it.' }),
    values: z
      .object({ company: leadValue('Company'), job_title: leadValue('Job title'), phone: leadValue('Phone') })
      .meta({ description: 'The lead form’s other answers: only the fields the hub asked when the visitor passed it.' }),
    identified_at: timestamp.nullable().meta({ description: 'When they passed the identification or lead form.' }),
    demos_opened: z.number().int().min(0).meta({ description: 'Demos they opened from the hub in this visit, each opening counted (entries removed since included).' }),
    demos: z
      .array(
        z.object({
          id: idSchema('demo'),
          title: z.string().meta({ description: 'The title on the hub’s card (the entry’s own, else the demo’s).' }),
          opens: z.number().int().min(1).meta({ description: 'How many times they opened it.' }),
        }),
      )
      .meta({ description: 'The demos they opened, most opened first; a demo whose entry was removed from the hub since is left out.' }),
  })
  .meta({
    id: 'HubVisitor',
    description: 'One identification on a hub: a visit (hub session) in which the visitor passed the identification or lead form.',
    examples: [
      {
        email: 'jane@acme.com',
        name: 'Jane Doe',
        values: { company: 'Acme', job_title: 'Head of Sales', phone: '+44 20 7946 0958' },
        identified_at: '2026-11-28T15:42:10.000Z',
        demos_opened: 3,
        demos: [
          { id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w', title: 'Create your first invoice', opens: 2 },
          { id: 'demo_01jd3k8r0y9w3n5p7q1s6t8v0x', title: 'Reports', opens: 1 },
        ],
      },
    ],
  });
export type HubVisitorOut = z.infer<typeof hubVisitorSchema>;

export const hubVisitorListEnvelope = listEnvelope(hubVisitorSchema);

const filters = {
  start_date: dateFilter.optional().meta({ description: `Identified on or after: YYYY-MM-DD (UTC) or an ISO timestamp. ${DATE_FILTER_RANGE_TEXT}` }),
  end_date: dateFilter.optional().meta({ description: `Identified on or before: YYYY-MM-DD (inclusive, UTC) or an ISO timestamp. ${DATE_FILTER_RANGE_TEXT}` }),
};
export const listHubVisitorsQuery = paginationQuery.extend(filters).strict();
export const exportHubVisitorsQuery = z.object(filters).strict();

export function toVisitorFilter(q: { start_date?: string; end_date?: string }): VisitorFilter {
  return resolveDateRange(q.start_date, q.end_date);
}

export function toHubVisitor(v: HubVisitor): HubVisitorOut {
  return {
    email: v.email,
    name: v.name,
    values: v.values,
    identified_at: iso(v.identifiedAt),
    demos_opened: v.demosOpened,
    demos: v.demos.map((d) => ({ id: d.id, title: d.title, opens: d.opens })),
  };
}

/** The CSV's columns, in order: who, their answers, what they opened (several demos in one cell, `; ` between them). */
export const VISITOR_CSV_COLUMNS = ['identified_at', 'email', 'name', ...HUB_LEAD_FIELDS, 'demos_opened', 'demo_ids', 'demo_titles'] as const;

/** The CSV rows of some visitors: the header, then one line's cells per visitor (a field not asked: empty). */
export function toVisitorCsvRows(visitors: readonly HubVisitor[]): unknown[][] {
  return [
    [...VISITOR_CSV_COLUMNS],
    ...visitors.map((v) => [
      v.identifiedAt,
      v.email,
      v.name,
      ...HUB_LEAD_FIELDS.map((f) => v.values[f]),
      v.demosOpened,
      v.demos.map((d) => d.id).join('; '),
      v.demos.map((d) => d.title).join('; '),
    ]),
  ];
}
