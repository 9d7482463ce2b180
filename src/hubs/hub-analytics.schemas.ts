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
  .meta({
    id: 'HubAnalytics',
    examples: [
      {
        start: '2026-10-30T00:00:00.000Z',
        end: '2026-11-28T23:59:59.999Z',
        visits: 240,
        identified_visitors: 61,
        demos_opened: 410,
        views: 402,
        completions: 188,
        completion_rate: 0.4677,
        entries: [{ entry_id: 'hent_01jd3m2k8p4q6r8s0t2v4w6x8y', demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w', title: 'Create your first invoice', opens: 210, views: 205, completions: 120 }],
        series: [{ date: '2026-11-28', visits: 12, demos_opened: 19 }],
        recent_visitors: [{ email: 'jane@acme.com', name: 'Jane Doe', values: { company: 'Acme' }, identified_at: '2026-11-28T15:42:10.000Z', demos_opened: 3 }],
      },
    ],
  });

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
