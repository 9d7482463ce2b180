import { z } from 'zod';
import { DATE_FILTER_RANGE_TEXT, dateFilter, timestamp } from '../core/time';
import { STANDARD_ERROR } from '../core/hll';
import { VIEW_EXAMPLE } from '../viewing/views.schemas';
import type { AnalyticsRange } from './analytics-context';

const TOP_PATHS_TEXT = 'twenty';

const range = {
  start_date: dateFilter.optional().meta({ description: `First day, YYYY-MM-DD (UTC, inclusive); a timestamp counts its whole day. ${DATE_FILTER_RANGE_TEXT}` }),
  end_date: dateFilter.optional().meta({ description: `Last day, YYYY-MM-DD (UTC, inclusive); a timestamp counts its whole day. ${DATE_FILTER_RANGE_TEXT}` }),
  include_internal: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true')
    .meta({
      description:
        'Count the workspace’s own traffic too: views from a browser signed in as a member, or identified ' +
        'with a member’s e-mail address. Left out by default.',
    }),
};

const granularity = z.enum(['day', 'week', 'month']).optional().meta({
  description: 'Adds `series`, one entry per period of the range, zeros included (weeks start on Monday, UTC).',
});

export const rangeQuery = z.object(range).strict();

/**
 * The range every figure takes, from its snake_case query: each analytics route passes it on this way.
 *
 * @example
 * ```ts
 * toAnalyticsRange({ start_date: '2026-11-01', include_internal: false }); // { startDate: '2026-11-01', endDate: undefined, includeInternal: false }
 * ```
 */
export const toAnalyticsRange = (q: z.infer<typeof rangeQuery>): AnalyticsRange => ({
  startDate: q.start_date,
  endDate: q.end_date,
  includeInternal: q.include_internal,
});

export const demoAnalyticsQuery = z
  .object({
    ...range,
    granularity,
    version: z.coerce
      .number()
      .int()
      .min(1)
      .max(2_147_483_647)
      .optional()
      .meta({
        description:
          'Only the views of this published version (GET /v1/demos/:id/versions), with its steps. Without ' +
          'it: every view, and the steps of the version viewers are served now (a step number counts the ' +
          'views of every version that had that number).',
      }),
  })
  .strict();

export const workspaceAnalyticsQuery = z.object({ ...range, granularity }).strict();

const pct = Math.round(STANDARD_ERROR * 1000) / 10;
export const UNIQUE_VIEWERS_TEXT =
  '`unique_viewers`: distinct e-mail addresses, else visitor ids, as the view had them when it started (a view begun ' +
  'in an embed before its page granted consent has no visitor id until consent comes, docs/consent.md). ' +
  `Exact while the range holds at most 20,000 views (ANALYTICS_EXACT_VIEWERS_UP_TO; always with \`version\`); beyond that, estimated ` +
  `from daily HyperLogLog sketches with a standard error of ${pct}% (within ${Math.round(pct * 3 * 10) / 10}% ` +
  'in 99.7% of cases).';

const seriesSchema = z
  .array(
    z.object({
      period_start: z.string().meta({ description: 'YYYY-MM-DD, UTC.' }),
      views: z.number().int(),
      unique_viewers: z.number().int(),
      completions: z.number().int(),
    }),
  )
  .optional()
  .meta({ description: 'With `granularity`: one entry per period of the range, empty ones included.' });

export const analyticsSchema = z
  .object({
    total_views: z.number().int(),
    unique_viewers: z.number().int(),
    completion_rate: z.number(),
    avg_time_seconds: z.number(),
    steps: z.array(
      z.object({
        number: z.number().int(),
        views: z.number().int(),
        avg_time: z.number().meta({ description: 'Mean seconds spent on the step by the views that reached it.' }),
        drop_off_rate: z.number(),
        title: z.string().nullable().meta({
          description:
            'The step’s title in the version the counted views played (the `version` asked for, else every version ' +
            'played in the range that has this step, when they agree on its title), not the draft’s. Null when the ' +
            'versions played name it differently, or nothing names it.',
        }),
      }),
    ),
    versions_played: z.array(z.number().int()).meta({
      description: 'The demo versions the views of the range played (0: views recorded before versions existed).',
    }),
    series: seriesSchema,
  })
  .meta({
    id: 'Analytics',
    examples: [
      {
        total_views: 98,
        unique_viewers: 68,
        completion_rate: 0.541,
        avg_time_seconds: 41.3,
        steps: [
          { number: 1, views: 98, avg_time: 9.2, drop_off_rate: 0.12, title: 'Create an invoice' },
          { number: 2, views: 86, avg_time: 14.8, drop_off_rate: 0.2, title: 'Open the invoice' },
          { number: 3, views: 69, avg_time: 6.1, drop_off_rate: 0.23, title: 'Send it' },
        ],
        versions_played: [1],
        series: [
          { period_start: '2026-11-16', views: 41, unique_viewers: 30, completions: 22 },
          { period_start: '2026-11-23', views: 57, unique_viewers: 38, completions: 31 },
        ],
      },
    ],
  });

export const workspaceAnalyticsSchema = z
  .object({
    total_views: z.number().int(),
    unique_viewers: z.number().int().meta({ description: 'Distinct viewers across every demo.' }),
    completions: z.number().int(),
    completion_rate: z.number(),
    avg_time_seconds: z.number(),
    demos_viewed: z.number().int().meta({ description: 'Demos with at least one view in the range.' }),
    top_demos: z
      .array(
        z.object({
          demo_id: z.string(),
          title: z.string(),
          views: z.number().int(),
          unique_viewers: z.number().int(),
          completions: z.number().int(),
          completion_rate: z.number(),
        }),
      )
      .meta({ description: 'The ten demos with the most views in the range, most first.' }),
    series: seriesSchema,
  })
  .meta({
    id: 'WorkspaceAnalytics',
    examples: [
      {
        total_views: 212,
        unique_viewers: 140,
        completions: 109,
        completion_rate: 0.514,
        avg_time_seconds: 38.7,
        demos_viewed: 4,
        top_demos: [
          {
            demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w',
            title: 'Create and send an invoice',
            views: 98,
            unique_viewers: 68,
            completions: 53,
            completion_rate: 0.541,
          },
        ],
      },
    ],
  });

export const linkAnalyticsSchema = z
  .object({
    share_id: z.string(),
    name: z.string().meta({ description: 'The link’s name (may be empty).' }),
    variables: z.record(z.string(), z.string()).meta({
      description: 'The link’s personalisation values as they are now (Share.variables): a personalised link names its account. {} for none.',
    }),
    revoked: z.boolean().meta({ description: 'Revoked since: its views still count.' }),
    views: z.number().int(),
    unique_viewers: z.number().int().meta({ description: 'Exact: distinct e-mail addresses, else visitor ids.' }),
    completions: z.number().int(),
    completion_rate: z.number(),
    last_viewed_at: timestamp.meta({ description: 'When the link’s latest view in the range started.' }),
  })
  .meta({
    id: 'LinkAnalytics',
    examples: [
      {
        share_id: 'shr_01jd3m2k8p4q6r8s0t2v4w6x8y',
        name: 'Acme evaluation',
        variables: { company: 'Acme', first_name: 'Dana' },
        revoked: false,
        views: 12,
        unique_viewers: 7,
        completions: 6,
        completion_rate: 0.5,
        last_viewed_at: '2026-11-24T15:42:10.000Z',
      },
    ],
  });

export const companyAnalyticsSchema = z
  .object({
    company: z.string().nullable().meta({ description: 'The e-mail domain; null for the individuals row.' }),
    kind: z.enum(['company', 'individuals']).meta({
      description: '`individuals` gathers every free-mail domain (gmail.com, outlook.com…) in one row.',
    }),
    viewers: z.number().int().meta({ description: 'Distinct e-mail addresses.' }),
    views: z.number().int(),
    completions: z.number().int(),
    completion_rate: z.number(),
    last_seen_at: timestamp,
  })
  .meta({
    id: 'CompanyAnalytics',
    examples: [
      {
        company: 'acme.com',
        kind: 'company',
        viewers: 4,
        views: 12,
        completions: 6,
        completion_rate: 0.5,
        last_seen_at: '2026-11-24T15:42:10.000Z',
      },
      {
        company: null,
        kind: 'individuals',
        viewers: 9,
        views: 11,
        completions: 3,
        completion_rate: 0.273,
        last_seen_at: '2026-11-23T08:15:00.000Z',
      },
    ],
  });

export const journeySchema = (view: z.ZodType) =>
  z
    .object({
      view,
      steps: z
        .array(
          z.object({
            number: z.number().int(),
            title: z.string().nullable().meta({ description: 'The step’s title in the version played; null when unknown.' }),
            seconds: z.number(),
            first_reached_at: timestamp,
          }),
        )
        .meta({ description: 'The steps the view reached, in the order it reached them.' }),
      other_views: z
        .array(
          z.object({
            id: z.string(),
            demo_id: z.string(),
            demo_title: z.string(),
            started_at: timestamp,
            completed: z.boolean(),
            steps_viewed: z.array(z.number().int()),
            duration_seconds: z.number(),
          }),
        )
        .meta({ description: 'The same e-mail address’s other views in the workspace, newest first (20 at most); empty for anonymous views.' }),
    })
    .meta({
      id: 'ViewJourney',
      examples: [
        {
          view: VIEW_EXAMPLE,
          steps: [
            { number: 1, title: 'Create an invoice', seconds: 8.4, first_reached_at: '2026-11-24T15:42:10.000Z' },
            { number: 2, title: 'Open the invoice', seconds: 12.1, first_reached_at: '2026-11-24T15:42:18.000Z' },
            { number: 3, title: 'Send it', seconds: 5.75, first_reached_at: '2026-11-24T15:42:30.000Z' },
          ],
          other_views: [
            {
              id: 'view_01jd3j2a4b6c8d0e2f4g6h8j0k',
              demo_id: 'demo_01jd3h9z1a3b5c7d9e1f3g5h7j',
              demo_title: 'Set up payment reminders',
              started_at: '2026-11-20T11:03:00.000Z',
              completed: false,
              steps_viewed: [1, 2],
              duration_seconds: 17.5,
            },
          ],
        },
      ],
    });

export const pathAnalyticsQuery = demoAnalyticsQuery.omit({ granularity: true }).strict();

const count = z.number().int();
const share = (what: string) => z.number().meta({ description: `${what}, 0 to 1 (four decimals; 0 when nothing to divide by).` });

export const pathAnalyticsSchema = z
  .object({
    total_views: count.meta({ description: 'Views of the range: the base of `choice_rate` and of a path’s `share`.' }),
    chapters: z
      .array(
        z.object({
          chapter_id: z.string(),
          title: z.string().nullable().meta({ description: 'From the versions (see the route); null when none has the chapter.' }),
          choices: count.meta({ description: 'chapter_selected events: a view that chose it twice counts twice.' }),
          views: count.meta({ description: 'Views that chose the chapter (once each).' }),
          choice_rate: share('`views` / the range’s views'),
          completed: count.meta({ description: 'Views that reached the chapter’s last step after choosing it (the funnel’s last row).' }),
          completion_rate: share('`completed` / `views`'),
          demo_completions: count.meta({ description: 'Views that chose the chapter and then completed the demo.' }),
          funnel: z
            .array(
              z.object({
                number: count,
                title: z.string().nullable(),
                views: count.meta({ description: 'Views that reached the step while this chapter was the one they chose last.' }),
                share: share('`views` / the chapter’s `views`'),
              }),
            )
            .meta({ description: 'The chapter’s steps in the reference version, in order; the steps counted when it has not the chapter.' }),
        }),
      )
      .meta({ description: 'Every chapter chosen in the range, most viewed first.' }),
    paths: z
      .array(
        z.object({
          chapters: z.array(z.string()).meta({ description: 'The chapters chosen, in the order first chosen (at most 8).' }),
          titles: z.array(z.string().nullable()),
          views: count.meta({ description: 'Views whose path is exactly this one (a view counts under its whole path).' }),
          share: share('`views` / the range’s views'),
        }),
      )
      .meta({ description: `The ${TOP_PATHS_TEXT} most viewed paths, most first. Views that chose no chapter are in no path.` }),
    branches: z
      .array(
        z.object({
          step_number: count,
          element_id: z.string().meta({ description: 'The hotspot or button id (a button id is unique within its step).' }),
          kind: z.enum(['hotspot', 'button']).nullable().meta({ description: 'Null when no version has the element.' }),
          label: z.string().nullable(),
          action_type: z.string().nullable().meta({ description: 'The action in the versions, else as the events reported it.' }),
          target: z.union([z.number().int(), z.string()]).nullable().meta({
            description: 'Where the action leads: a step number (goto, submit), a chapter id, an address; null for none.',
          }),
          clicks: count.meta({ description: 'action_taken events.' }),
          views: count.meta({ description: 'Views that used the element (once each).' }),
          click_rate: share('`views` / the views that reached the step'),
        }),
      )
      .meta({ description: 'Hotspots and buttons used (action_taken), by step then id.' }),
    ctas: z
      .array(
        z.object({
          step_number: count,
          button_id: z.string(),
          label: z.string().nullable(),
          cta: z.string().nullable().meta({ description: 'The button’s call-to-action kind (book_meeting, sign_up…), when set.' }),
          clicks: count.meta({ description: 'cta_clicked events.' }),
          views: count.meta({ description: 'Views that clicked it (once each).' }),
          click_through_rate: share('`views` / the views that reached the step'),
        }),
      )
      .meta({ description: 'Calls to action clicked (cta_clicked), by step then id.' }),
    forms: z
      .array(
        z.object({
          step_number: count,
          title: z.string().nullable(),
          shown: count.meta({ description: 'Views that were shown the form (once each, as every stage).' }),
          started: count,
          submitted: count,
          start_rate: share('`started` / `shown`'),
          conversion: share('`submitted` / `shown`'),
        }),
      )
      .meta({ description: 'Lead forms by step.' }),
    versions_played: z.array(z.number().int()),
  })
  .meta({
    id: 'PathAnalytics',
    examples: [
      {
        total_views: 120,
        chapters: [
          {
            chapter_id: 'chp_01jd8x3k5m7n9p2q4r6s8t0v1w',
            title: 'Invoicing',
            choices: 74,
            views: 70,
            choice_rate: 0.5833,
            completed: 41,
            completion_rate: 0.5857,
            demo_completions: 38,
            funnel: [
              { number: 3, title: 'Create an invoice', views: 70, share: 1 },
              { number: 4, title: 'Send it', views: 41, share: 0.5857 },
            ],
          },
        ],
        paths: [
          { chapters: ['chp_01jd8x3k5m7n9p2q4r6s8t0v1w'], titles: ['Invoicing'], views: 52, share: 0.4333 },
          {
            chapters: ['chp_01jd8x3k5m7n9p2q4r6s8t0v1w', 'chp_01jd8x4a6b8c0d2e4f6g8h0j2k'],
            titles: ['Invoicing', 'Reports'],
            views: 18,
            share: 0.15,
          },
        ],
        branches: [
          {
            step_number: 2,
            element_id: 'invoicing',
            kind: 'button',
            label: 'Invoicing',
            action_type: 'chapter',
            target: 'chp_01jd8x3k5m7n9p2q4r6s8t0v1w',
            clicks: 74,
            views: 70,
            click_rate: 0.6087,
          },
        ],
        ctas: [{ step_number: 6, button_id: 'book-call', label: 'Book a call', cta: 'book_meeting', clicks: 19, views: 17, click_through_rate: 0.3696 }],
        forms: [{ step_number: 5, title: 'Get the guide', shown: 60, started: 44, submitted: 31, start_rate: 0.7333, conversion: 0.5167 }],
        versions_played: [2],
      },
    ],
  });
