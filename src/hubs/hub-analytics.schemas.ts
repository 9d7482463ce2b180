// The wire shape of a hub's analytics.
import { z } from 'zod';
import { iso, timestamp } from '../core/time';
import type { HubAnalytics } from './hub-analytics.service';

export const hubAnalyticsSchema = z
  .object({
    start: timestamp,
    end: timestamp,
    visits: z.number().int().meta({ description: 'Viewer sessions opened on the hub (a visit per browser session).' }),
    identified_visitors: z.number().int().meta({ description: 'Distinct e-mail addresses that passed the identification or lead form.' }),
    demos_opened: z.number().int().meta({ description: 'Demos opened from the hub.' }),
    views: z.number().int().meta({ description: 'Views started on the hub’s entries.' }),
    completions: z.number().int(),
    completion_rate: z.number().meta({ description: 'completions / views (0 without views).' }),
    entries: z.array(
      z.object({
        entry_id: z.string(),
        demo_id: z.string(),
        title: z.string(),
        opens: z.number().int(),
        views: z.number().int(),
        completions: z.number().int(),
      }),
    ),
    series: z.array(z.object({ date: z.string().meta({ description: 'YYYY-MM-DD (UTC)' }), visits: z.number().int(), demos_opened: z.number().int() })),
    recent_visitors: z.array(
      z.object({
        email: z.string(),
        name: z.string().nullable(),
        values: z.record(z.string(), z.string()).meta({ description: 'Lead-form answers (company, job_title, phone).' }),
        identified_at: timestamp.nullable(),
        demos_opened: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'HubAnalytics' });

export function toHubAnalytics(f: Awaited<ReturnType<HubAnalytics['figures']>>) {
  return {
    start: iso(f.from),
    end: iso(f.to),
    visits: f.visits,
    identified_visitors: f.identifiedVisitors,
    demos_opened: f.demosOpened,
    views: f.views,
    completions: f.completions,
    completion_rate: f.completionRate,
    entries: f.entries.map((e) => ({ entry_id: e.entryId, demo_id: e.demoId, title: e.title, opens: e.opens, views: e.views, completions: e.completions })),
    series: f.series.map((d) => ({ date: d.day, visits: d.visits, demos_opened: d.opens })),
    recent_visitors: f.recentVisitors.map((v) => ({
      email: v.email!,
      name: v.name ?? null,
      values: v.values as Record<string, string>,
      identified_at: iso(v.identifiedAt),
      demos_opened: Number(v.demosOpened),
    })),
  };
}
