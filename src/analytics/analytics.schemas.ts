import { z } from 'zod';
import { dateFilter, timestamp } from '../core/time';
import { STANDARD_ERROR } from '../core/hll';

const range = {
  start_date: dateFilter.optional().meta({ description: 'First day, YYYY-MM-DD (UTC, inclusive); a timestamp counts its whole day.' }),
  end_date: dateFilter.optional().meta({ description: 'Last day, YYYY-MM-DD (UTC, inclusive); a timestamp counts its whole day.' }),
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
  '`unique_viewers`: distinct e-mail addresses, else visitor ids, as the view had them when it started. ' +
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
      }),
    ),
    series: seriesSchema,
  })
  .meta({ id: 'Analytics' });

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
  .meta({ id: 'WorkspaceAnalytics' });

export const linkAnalyticsSchema = z
  .object({
    share_id: z.string(),
    name: z.string().meta({ description: 'The link’s name (may be empty).' }),
    revoked: z.boolean().meta({ description: 'Revoked since: its views still count.' }),
    views: z.number().int(),
    unique_viewers: z.number().int().meta({ description: 'Exact: distinct e-mail addresses, else visitor ids.' }),
    completions: z.number().int(),
    completion_rate: z.number(),
    last_viewed_at: timestamp.meta({ description: 'When the link’s latest view in the range started.' }),
  })
  .meta({ id: 'LinkAnalytics' });

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
  .meta({ id: 'CompanyAnalytics' });

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
    .meta({ id: 'ViewJourney' });
