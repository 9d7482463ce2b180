// The demo-file routes' requests and answers (the file itself is demo-document.schemas.ts).
import { z } from 'zod';
import { keySchema } from './demo-document.schemas';

export const exportQuery = z
  .object({
    version: z
      .union([z.enum(['draft', 'published']), z.string().regex(/^[1-9][0-9]{0,8}$/, 'must be draft, published or a version number')])
      .default('draft')
      .meta({ description: '`draft` (the editor’s content, default), `published` (the newest version viewers see) or a version number.', example: 'draft' }),
  })
  .strict();

export const toContentVersion = (version: string): 'draft' | 'published' | number =>
  version === 'draft' || version === 'published' ? version : Number(version);

export const keyParams = z.object({ key: keySchema });

export const pushQuery = z
  .object({
    publish: z
      .enum(['true', 'false'])
      .optional()
      .transform((v) => v === 'true')
      .meta({ description: 'Publish after the update (no new version when the newest one already has this content).' }),
    dry_run: z
      .enum(['true', 'false'])
      .optional()
      .transform((v) => v === 'true')
      .meta({ description: 'Check the file and say what the push would do, with every check of a real one, and write nothing.' }),
  })
  .strict();

export const PUSH_OUTCOMES = ['created', 'updated', 'unchanged'] as const;

export const pushResultSchema = z
  .object({
    demo_id: z.string().meta({ example: 'demo_01jd8x7k2m3n4p5q6r7s8t9v0w' }),
    key: z.string().meta({ example: 'onboarding' }),
    outcome: z.enum(PUSH_OUTCOMES).meta({ description: '`created`: a new demo; `updated`: its draft changed; `unchanged`: nothing was written.' }),
    changes: z.array(z.string()).meta({ description: 'What changed (`title`, `configuration`, `source_url`, `chapters`, `steps`); empty unless updated.' }),
    published_version: z.number().int().nullable().meta({ description: 'The version this push published, or null (not asked, or nothing new to publish).' }),
    dry_run: z.boolean().meta({ description: 'True when nothing was written: the answer says what the push would have done (`demo_id` of a demo it would create is not kept).' }),
  })
  .meta({
    id: 'DemoPush',
    examples: [{ demo_id: 'demo_01jd8x7k2m3n4p5q6r7s8t9v0w', key: 'onboarding', outcome: 'updated', changes: ['steps'], published_version: 3, dry_run: false }],
  });

export const demoKeySchema = z
  .object({
    demo_id: z.string(),
    key: z.string().nullable().meta({ description: 'The demo’s key, or null without one.' }),
  })
  .meta({ id: 'DemoKey', examples: [{ demo_id: 'demo_01jd8x7k2m3n4p5q6r7s8t9v0w', key: 'onboarding' }] });

export const setKeyBody = z
  .object({ key: keySchema.nullable().meta({ description: 'The new key, or null to remove it.' }) })
  .strict()
  .meta({ examples: [{ key: 'onboarding' }] });

export function toPushResult(
  key: string,
  r: { demoId: string; outcome: (typeof PUSH_OUTCOMES)[number]; changes: string[]; publishedVersion: number | null },
  dryRun: boolean,
) {
  return { demo_id: r.demoId, key, outcome: r.outcome, changes: r.changes, published_version: r.publishedVersion, dry_run: dryRun };
}
