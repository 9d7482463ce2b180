import { z } from 'zod';
import { cursorPaginationQuery } from '../core/pagination';
import { DATE_FILTER_RANGE_TEXT, dateFilter, iso, timestamp } from '../core/time';
import type { viewSteps, views } from './viewing.tables';
import { text } from '../core/text';

export type ViewRow = typeof views.$inferSelect;
export type ViewStepRow = typeof viewSteps.$inferSelect;
/** The link a listed view came through, joined by the views list (views.repo.ts). */
export interface ViewLinkColumns {
  linkName: string | null;
  linkVariables: Record<string, string> | null;
}

const range = {
  start_date: dateFilter.optional().meta({ description: `YYYY-MM-DD (inclusive, UTC) or an ISO timestamp. ${DATE_FILTER_RANGE_TEXT}` }),
  end_date: dateFilter.optional().meta({ description: `YYYY-MM-DD (inclusive, UTC) or an ISO timestamp. ${DATE_FILTER_RANGE_TEXT}` }),
};

const versionFilter = z.coerce
  .number()
  .int()
  .min(1)
  .max(2_147_483_647)
  .optional()
  .meta({ description: 'Only the views of this published version of the demo.' });

export const listViewsQuery = cursorPaginationQuery
  .extend({
    ...range,
    viewer_email: text().trim().max(254).optional().meta({ description: 'Only views of this e-mail address.' }),
    version: versionFilter,
    include_internal: z
      .enum(['true', 'false'])
      .optional()
      .transform((v) => v === 'true')
      .meta({ description: 'List the workspace’s own views (`internal`) too; left out by default.' }),
  })
  .strict();

/** One view as the API answers it: the View schema's example, and the view of a journey's. */
export const VIEW_EXAMPLE = {
  id: 'view_01jd3n6q7r9s1t3v5w7x9y1z3a',
  demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w',
  share_id: 'shr_01jd3m2k8p4q6r8s0t2v4w6x8y',
  version: 2,
  viewer: { email: 'jane@acme.com', name: 'Jane Doe', anonymous_id: 'T3kq9XbV2mLp7RwZ' },
  steps_viewed: [1, 2, 3],
  step_times: [
    { number: 1, seconds: 8.4 },
    { number: 2, seconds: 12.1 },
    { number: 3, seconds: 5.75 },
  ],
  completed: true,
  completed_at: '2026-11-24T15:42:36.000Z',
  duration_seconds: 26.25,
  started_at: '2026-11-24T15:42:10.000Z',
  last_activity_at: '2026-11-24T15:42:36.000Z',
  referrer: 'https://mail.google.com/',
  user_agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  internal: false,
  company: 'acme.com',
  link: { name: 'Acme: Jane', variables: { company: 'Acme', first_name: 'Jane' } },
};

export const viewSchema = z
  .object({
    id: z.string(),
    demo_id: z.string(),
    share_id: z.string().nullable(),
    version: z.number().int().nullable().meta({
      description:
        'The published version the viewer played (GET /v1/demos/:id/versions): `steps_viewed` and ' +
        '`step_times` are its step numbers, whatever the demo became since. Null for views recorded ' +
        'before versions existed.',
    }),
    viewer: z.object({
      email: z.string().nullable(),
      name: z.string().nullable(),
      anonymous_id: z.string().nullable(),
    }),
    steps_viewed: z.array(z.number().int()),
    step_times: z.array(z.object({ number: z.number().int(), seconds: z.number() })),
    completed: z.boolean(),
    completed_at: timestamp.nullable(),
    duration_seconds: z.number(),
    started_at: timestamp,
    last_activity_at: timestamp,
    referrer: z.string().nullable(),
    user_agent: z.string().nullable(),
    internal: z.boolean().meta({
      description:
        'The workspace’s own traffic: opened from a browser signed in as a member, or identified with a ' +
        'member’s e-mail address when the view started. Left out of every figure unless asked for.',
    }),
    company: z.string().nullable().meta({ description: 'The domain of the viewer’s e-mail address when the view started.' }),
    link: z
      .object({
        name: z.string(),
        variables: z.record(z.string(), z.string()).meta({ description: 'The link’s personalisation values (Share.variables).' }),
      })
      .nullable()
      .optional()
      .meta({
        description:
          'In the views list: the share link the view came through, as it is now (a personalised link names its ' +
          'account, e.g. `variables.company`); null when the view has no link.',
      }),
  })
  .meta({
    id: 'View',
    examples: [
      VIEW_EXAMPLE,
    ],
  });

const round = (n: number) => Math.round(n * 100) / 100;

/** The columns of a view the API shows: the views list reads these alone (views.repo.ts). */
export type ShownView = Pick<
  ViewRow,
  | 'id'
  | 'demoId'
  | 'shareId'
  | 'version'
  | 'viewerEmail'
  | 'viewerName'
  | 'anonymousId'
  | 'stepsViewed'
  | 'completed'
  | 'completedAt'
  | 'durationSeconds'
  | 'startedAt'
  | 'lastActivityAt'
  | 'referrer'
  | 'userAgent'
  | 'internal'
  | 'company'
>;

export function toView(row: ShownView & Partial<ViewLinkColumns>, steps: Pick<ViewStepRow, 'stepNumber' | 'seconds'>[]) {
  return {
    id: row.id,
    demo_id: row.demoId,
    share_id: row.shareId,
    version: row.version,
    viewer: { email: row.viewerEmail, name: row.viewerName, anonymous_id: row.anonymousId },
    steps_viewed: row.stepsViewed,
    step_times: steps.map((s) => ({ number: s.stepNumber, seconds: round(s.seconds) })),
    completed: row.completed,
    completed_at: iso(row.completedAt),
    duration_seconds: round(row.durationSeconds),
    started_at: iso(row.startedAt),
    last_activity_at: iso(row.lastActivityAt),
    referrer: row.referrer,
    user_agent: row.userAgent,
    internal: row.internal,
    company: row.company,
    ...(row.linkName !== undefined
      ? { link: row.linkName === null ? null : { name: row.linkName, variables: row.linkVariables ?? {} } }
      : {}),
  };
}
