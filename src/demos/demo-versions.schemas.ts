import { z } from 'zod';
import { paginationQuery } from '../core/pagination';
import { iso, timestamp } from '../core/time';
import { demoParams } from './demo-fields.schemas';
import type { listVersions } from './demo-versions.repo';

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
