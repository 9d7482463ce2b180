// A/B tests on the wire: snake_case JSON ↔ camelCase rows, and the documentation of every field.
import { z } from 'zod';
import { idSchema } from '../core/ids';
import { paginationQuery } from '../core/pagination';
import { text } from '../core/text';
import { iso, timestamp } from '../core/time';
import type { ArmFigures, ArmRow, ExperimentRow } from './experiments.repo';
import { EXPERIMENT_METRICS, EXPERIMENT_STATUSES } from './experiments.tables';
import { SIGNIFICANCE_METHOD, type Significance } from './significance';

export const MAX_ARMS = 10;
export const MAX_WEIGHT = 1000;

export const experimentParams = z.object({ id: idSchema('share') });
export const experimentByIdParams = experimentParams.extend({
  experiment_id: idSchema('experiment').meta({ description: 'One of the link’s experiments, as GET /v1/shares/{id}/experiments lists them.' }),
});
export const listExperimentsQuery = paginationQuery.strict();

const metric = z.enum(EXPERIMENT_METRICS).meta({
  description:
    'The proportion the significance figure compares: `completion` (views that reached the end), `form_conversion` ' +
    '(views that submitted a lead form), `cta_click` (views that clicked a call to action at least once).',
});

const armInput = z
  .object({
    demo_id: idSchema('demo').meta({ description: 'A demo of the same workspace, published.' }),
    version: z
      .int()
      .min(1)
      .max(1_000_000)
      .nullable()
      .optional()
      .meta({ description: "A published version of that demo to serve (`demo_versions`' number). Null or left out: its newest published version, as it changes." }),
    weight: z
      .int()
      .min(1)
      .max(MAX_WEIGHT)
      .meta({ description: `A positive integer up to ${MAX_WEIGHT}: the arm gets weight / (sum of weights) of new viewers.` }),
    label: text().trim().min(1).max(60).optional().meta({ description: "A name for the arm. Left out: the demo's title (and `v<version>` when pinned)." }),
  })
  .strict();

export const startExperimentBody = z
  .object({
    name: text().trim().max(100).optional().meta({ description: 'What is being tested, e.g. "Short tour vs full tour".' }),
    metric: metric.optional().meta({ description: 'Left out: `completion`.' }),
    arms: z
      .array(armInput)
      .min(2)
      .max(MAX_ARMS)
      .meta({
        description:
          `Two to ${MAX_ARMS} arms, distinct (no two name the same demo and version). The first is the control: the ` +
          'others are compared with it.',
      }),
  })
  .strict()
  .meta({
    examples: [
      {
        name: 'Short tour vs full tour',
        metric: 'completion',
        arms: [
          { demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w', weight: 1 },
          { demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9x', weight: 1 },
        ],
      },
    ],
  });

const ARM_A = 'arm_01jd3k7q9x8v2m4n6p0r5s7ta1';
const ARM_B = 'arm_01jd3k7q9x8v2m4n6p0r5s7ta2';
const EXPERIMENT_EXAMPLE = {
  id: 'exp_01jd3k7q9x8v2m4n6p0r5s7t9y',
  share_id: 'shr_01jd3k7q9x8v2m4n6p0r5s7t9z',
  name: 'Short tour vs full tour',
  metric: 'completion',
  status: 'running',
  winner_arm_id: null,
  arms: [
    { id: ARM_A, label: 'Short tour', demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w', version: null, weight: 1, share: 0.5, serving: true },
    { id: ARM_B, label: 'Full tour v3', demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9x', version: 3, weight: 1, share: 0.5, serving: true },
  ],
  started_at: '2026-11-21T10:00:00.000Z',
  stopped_at: null,
};

export const stopExperimentBody = z
  .object({
    winner_arm_id: idSchema('experimentArm')
      .nullable()
      .optional()
      .meta({
        description:
          'The arm to keep: the link serves it to every viewer from now on. Null: the link serves its own demo again. ' +
          'Left out: the winner the significance test named (409 when it has named none yet).',
      }),
  })
  .strict()
  .meta({ examples: [{ winner_arm_id: ARM_B }, { winner_arm_id: null }, {}] });

export const armSchema = z
  .object({
    id: idSchema('experimentArm'),
    label: z.string(),
    demo_id: idSchema('demo').nullable().meta({ description: 'Null once the demo was deleted (the arm serves nothing; its figures stay).' }),
    version: z.int().nullable().meta({ description: 'The pinned version; null: the newest published one.' }),
    weight: z.int(),
    share: z.number().meta({ description: 'weight / sum of weights: the expected part of new viewers.' }),
    serving: z.boolean().meta({
      description:
        'Whether the arm can be served now: its demo exists, is published and has the version. An arm that cannot is ' +
        'skipped; its viewers move to the other arms by weight at their next request. On an earlier experiment of the ' +
        'link (the link serves only its newest), whether it could be.',
    }),
  })
  .meta({ id: 'ExperimentArm' });

export const experimentSchema = z
  .object({
    id: idSchema('experiment'),
    share_id: idSchema('share'),
    name: z.string(),
    metric,
    status: z.enum(EXPERIMENT_STATUSES).meta({
      description:
        '`running`: each viewer is served one arm and stays on it. `stopped`: every viewer gets `winner_arm_id` (or the ' +
        "link's own demo) until the link's next experiment starts.",
    }),
    winner_arm_id: idSchema('experimentArm').nullable().meta({ description: 'The arm kept when stopped; null while running or when none was kept.' }),
    arms: z.array(armSchema),
    started_at: timestamp,
    stopped_at: timestamp.nullable(),
  })
  .meta({ id: 'Experiment', examples: [EXPERIMENT_EXAMPLE] });

const rate = z.number().meta({ description: 'Count / views, 0 without views (4 decimals).' });

export const experimentResultsSchema = z
  .object({
    experiment: experimentSchema,
    arms: z.array(
      z.object({
        arm_id: idSchema('experimentArm'),
        label: z.string(),
        views: z.int().meta({ description: "Views started on this arm (the workspace's own traffic left out)." }),
        unique_viewers: z.int().meta({ description: 'Distinct viewers: by e-mail, else by viewer session.' }),
        completions: z.int(),
        completion_rate: rate,
        form_conversions: z.int().meta({ description: 'Views that submitted a lead form.' }),
        form_conversion_rate: rate,
        cta_clicks: z.int().meta({ description: 'Views that clicked a call to action at least once.' }),
        cta_click_rate: rate,
        comparison: z
          .object({
            difference: z.number().meta({ description: "This arm's rate of the metric minus the first arm's." }),
            z: z.number(),
            p_value: z.number().meta({ description: 'Two-sided.' }),
            significant: z.boolean().meta({ description: 'p_value < corrected_alpha.' }),
          })
          .nullable()
          .meta({ description: 'Against the first arm (the control), on the metric; null for the first arm.' }),
      }),
    ),
    significance: z.object({
      method: z.string().meta({ description: 'The test, named.' }),
      metric,
      alpha: z.number(),
      corrected_alpha: z.number().meta({ description: 'alpha / (arms − 1) (Bonferroni).' }),
      min_views_per_arm: z.int().meta({ description: 'No verdict before every arm has this many views (and 5 successes and 5 failures).' }),
      verdict: z.enum(['too_small', 'no_difference', 'winner']).meta({
        description: '`too_small`: the sample is too small to say; `no_difference`: no arm differs significantly; `winner`: see winner_arm_id.',
      }),
      winner_arm_id: idSchema('experimentArm').nullable(),
      leader_arm_id: idSchema('experimentArm').nullable().meta({ description: 'The arm with the highest rate so far, significant or not.' }),
    }),
  })
  .meta({
    id: 'ExperimentResults',
    examples: [
      {
        experiment: EXPERIMENT_EXAMPLE,
        arms: [
          { arm_id: ARM_A, label: 'Short tour', views: 1000, unique_viewers: 940, completions: 200, completion_rate: 0.2, form_conversions: 50, form_conversion_rate: 0.05, cta_clicks: 120, cta_click_rate: 0.12, comparison: null },
          {
            arm_id: ARM_B,
            label: 'Full tour v3',
            views: 1000,
            unique_viewers: 951,
            completions: 250,
            completion_rate: 0.25,
            form_conversions: 61,
            form_conversion_rate: 0.061,
            cta_clicks: 133,
            cta_click_rate: 0.133,
            comparison: { difference: 0.05, z: 2.6774, p_value: 0.00742, significant: true },
          },
        ],
        significance: {
          method: SIGNIFICANCE_METHOD,
          metric: 'completion',
          alpha: 0.05,
          corrected_alpha: 0.05,
          min_views_per_arm: 100,
          verdict: 'winner',
          winner_arm_id: ARM_B,
          leader_arm_id: ARM_B,
        },
      },
    ],
  });

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

export function toExperiment(experiment: ExperimentRow, arms: ArmRow[], serving: ReadonlySet<string>): z.input<typeof experimentSchema> {
  const total = arms.reduce((s, a) => s + a.weight, 0);
  return {
    id: experiment.id,
    share_id: experiment.shareId,
    name: experiment.name,
    metric: experiment.metric,
    status: experiment.status,
    winner_arm_id: experiment.winnerArmId,
    arms: arms.map((a) => ({
      id: a.id,
      label: a.label,
      demo_id: a.demoId,
      version: a.version,
      weight: a.weight,
      share: total > 0 ? round4(a.weight / total) : 0,
      serving: serving.has(a.id),
    })),
    started_at: iso(experiment.startedAt),
    stopped_at: iso(experiment.stoppedAt),
  };
}

export function toResults(
  experiment: z.input<typeof experimentSchema>,
  figures: ArmFigures[],
  significance: Significance,
): z.input<typeof experimentResultsSchema> {
  const ratio = (a: number, b: number) => (b > 0 ? round4(a / b) : 0);
  return {
    experiment,
    arms: experiment.arms.map((arm, i) => {
      const f = figures[i]!;
      const c = significance.comparisons.find((x) => x.armId === arm.id);
      return {
        arm_id: arm.id,
        label: arm.label,
        views: f.views,
        unique_viewers: f.uniqueViewers,
        completions: f.completions,
        completion_rate: ratio(f.completions, f.views),
        form_conversions: f.formConversions,
        form_conversion_rate: ratio(f.formConversions, f.views),
        cta_clicks: f.ctaClicks,
        cta_click_rate: ratio(f.ctaClicks, f.views),
        comparison: c ? { difference: round4(c.difference), z: round4(c.z), p_value: Number(c.pValue.toPrecision(4)), significant: c.significant } : null,
      };
    }),
    significance: {
      method: significance.method,
      metric: experiment.metric,
      alpha: significance.alpha,
      corrected_alpha: round4(significance.correctedAlpha),
      min_views_per_arm: significance.minViewsPerArm,
      verdict: significance.verdict,
      winner_arm_id: significance.winnerArmId,
      leader_arm_id: significance.leaderArmId,
    },
  };
}
