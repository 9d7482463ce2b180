import { z } from 'zod';
import { paginationQuery } from '../core/pagination';
import { iso, timestamp } from '../core/time';
import { demoParams } from './demo-fields.schemas';
import type { listVersions } from './demo-versions.repo';
import { STEP_PARTS, type VersionDiff } from './version-diff';

export const listVersionsQuery = paginationQuery.strict();

export const versionParams = demoParams.extend({
  // Path parameters are text: a number beyond int4 or not a number at all is a 400, not a database error.
  version: z.coerce.number().int().min(1).max(2_147_483_647).meta({ description: 'The version number (1, 2, …).' }),
});

export const demoVersionSchema = z
  .object({
    id: z.string(),
    number: z.number().int().meta({ description: '1 for the first publish, then 2, 3, …' }),
    title: z.string().meta({ description: 'The demo title as published.' }),
    step_count: z.number().int(),
    published_at: timestamp,
    published_by: z
      .object({
        user_id: z.string(),
        email: z.string().nullable().meta({ description: 'Null once the user account is gone.' }),
        name: z.string().nullable(),
      })
      .nullable()
      .meta({ description: 'Who published; null for versions made when versions were introduced.' }),
  })
  .meta({
    id: 'DemoVersion',
    examples: [
      {
        id: 'dver_01jd3k9e4f6g8h0j2k4m6n8p0q',
        number: 2,
        title: 'Create and send an invoice',
        step_count: 3,
        published_at: '2026-11-22T09:00:00.000Z',
        published_by: { user_id: 'usr_01jd3k7q9x8v2m4n6p0r5s7t9w', email: 'ada@example.com', name: 'Ada Lovelace' },
      },
    ],
  });

type VersionListRow = Awaited<ReturnType<typeof listVersions>>['rows'][number];

export function toDemoVersion(row: VersionListRow): z.infer<typeof demoVersionSchema> {
  return {
    id: row.id,
    number: row.number,
    title: row.title,
    step_count: row.stepCount,
    published_at: iso(row.publishedAt),
    published_by: row.publishedById
      ? { user_id: row.publishedById, email: row.publishedByEmail, name: row.publishedByName }
      : null,
  };
}

export const versionChangesQuery = z
  .object({
    against: z
      .enum(['draft', 'live'])
      .default('draft')
      .meta({ description: 'What to compare the version with: the current draft (default) or the version viewers are served.' }),
  })
  .strict();

const hotspotCounts = z
  .object({
    added: z.number().int(),
    removed: z.number().int(),
    changed: z.number().int().meta({ description: 'Moved, resized, relabelled or given another action.' }),
  })
  .meta({ description: 'Hotspots of the step added, removed and changed on the compared side.' });

export const versionChangesSchema = z
  .object({
    version: z.number().int().meta({ description: 'The version compared (the "from" side).' }),
    against: z.union([z.literal('draft'), z.number().int()]).meta({ description: '`draft`, or the number of the live version.' }),
    title: z
      .object({ from: z.string(), to: z.string() })
      .nullable()
      .meta({ description: 'The demo title on each side; null when it is the same.' }),
    configuration_changed: z.boolean().meta({ description: 'Whether the player settings (theme, navigation, autoplay…) differ.' }),
    chapters_changed: z.boolean().meta({ description: 'Whether chapters were added, removed, renamed or reordered.' }),
    steps: z
      .array(
        z.object({
          step_id: z.string(),
          change: z.enum(['added', 'removed', 'changed', 'unchanged']),
          number_from: z.number().int().nullable().meta({ description: 'Its number in the version; null when added since.' }),
          number_to: z.number().int().nullable().meta({ description: 'Its number on the compared side; null when removed.' }),
          title_from: z.string().nullable(),
          title_to: z.string().nullable(),
          description_from: z.string().nullable(),
          description_to: z.string().nullable(),
          parts: z
            .array(z.enum(STEP_PARTS))
            .meta({
              description:
                'What differs in a changed step; `position` when it was reordered among the steps both sides share; `kind` ' +
                '(page, cover, chapter menu, form, end), `chapter` (moved to another chapter), `buttons`, `form`, `page_edits` ' +
                '(patches to the captured page). `description` covers its rich text too; `hotspots` their rich tooltips.',
            }),
          hotspots: hotspotCounts,
        }),
      )
      .meta({ description: 'Every step of either side, in the compared side’s order, removed steps where they were.' }),
  })
  .meta({
    id: 'DemoVersionChanges',
    examples: [
      {
        version: 2,
        against: 'draft',
        title: null,
        configuration_changed: false,
        chapters_changed: false,
        steps: [
          {
            step_id: 'step_01jd3k9e4f6g8h0j2k4m6n8p0q',
            change: 'changed',
            number_from: 2,
            number_to: 2,
            title_from: 'Pick a plan',
            title_to: 'Pick the plan that fits',
            description_from: 'Three plans.',
            description_to: 'Starter, Team and Business.',
            parts: ['title', 'description', 'hotspots', 'buttons'],
            hotspots: { added: 0, removed: 0, changed: 1 },
          },
          {
            step_id: 'step_01jd3k9e4f6g8h0j2k4m6n8p0r',
            change: 'added',
            number_from: null,
            number_to: 3,
            title_from: null,
            title_to: 'Invite your team',
            description_from: null,
            description_to: 'Send an invitation.',
            parts: [],
            hotspots: { added: 1, removed: 0, changed: 0 },
          },
        ],
      },
    ],
  });

export function toVersionChanges(version: number, diff: { against: 'draft' | number } & VersionDiff): z.infer<typeof versionChangesSchema> {
  return {
    version,
    against: diff.against,
    title: diff.title,
    configuration_changed: diff.configurationChanged,
    chapters_changed: diff.chaptersChanged,
    steps: diff.steps.map((s) => ({
      step_id: s.stepId,
      change: s.change,
      number_from: s.numberFrom,
      number_to: s.numberTo,
      title_from: s.titleFrom,
      title_to: s.titleTo,
      description_from: s.descriptionFrom,
      description_to: s.descriptionTo,
      parts: s.parts,
      hotspots: s.hotspots,
    })),
  };
}
