// Request and answer schemas of the chapters of a demo's story (docs/interactive-demos.md).
import { z } from 'zod';
import { idSchema } from '../core/ids';
import { text } from '../core/text';
import type { ChapterRow } from './chapters.repo';
import { demoParams } from './demo-fields.schemas';
import type { StepRow } from './demos.repo';

export const chapterParams = demoParams.extend({ chapter_id: idSchema('chapter') });

const chapterText = {
  title: text().trim().min(1).max(120),
  description: text().trim().max(500),
};

export const createChapterBody = z
  .object({
    title: chapterText.title,
    description: chapterText.description.optional(),
    number: z.number().int().min(1).optional().meta({ description: 'Where it goes among the chapters. Default: last.' }),
  })
  .strict()
  .meta({ examples: [{ title: 'Invoicing', description: 'Create, send and get paid.' }, { title: 'Reporting', number: 1 }] });

export const patchChapterBody = z
  .object({
    title: chapterText.title.optional(),
    description: chapterText.description.optional(),
    number: z.number().int().min(1).optional().meta({ description: 'Moves it among the chapters.' }),
  })
  .strict()
  .meta({ examples: [{ title: 'Settings and roles' }, { number: 2 }] });

export type ChapterInput = z.infer<typeof patchChapterBody>;

export const chapterSchema = z
  .object({
    id: z.string(),
    number: z.number().int().meta({ description: 'Its place among the demo’s chapters (the order of a chapter menu).' }),
    title: z.string(),
    description: z.string(),
    step_numbers: z.array(z.number().int()).meta({ description: 'Its steps (those whose `chapter_id` names it), in order.' }),
    first_step: z.number().int().nullable().meta({ description: 'Where a `chapter` action starts it; null while it has no step.' }),
  })
  .meta({
    id: 'Chapter',
    examples: [
      {
        id: 'chp_01jd3k8e4f6g8h0j2k4m6n8p0q',
        number: 1,
        title: 'Invoicing',
        description: 'Create, send and get paid.',
        step_numbers: [3, 4, 5],
        first_step: 3,
      },
    ],
  });

export function toChapter(row: ChapterRow, steps: Pick<StepRow, 'chapterId' | 'position'>[]) {
  const numbers = steps
    .filter((s) => s.chapterId === row.id)
    .map((s) => s.position)
    .sort((a, b) => a - b);
  return {
    id: row.id,
    number: row.position,
    title: row.title,
    description: row.description,
    step_numbers: numbers,
    first_step: numbers[0] ?? null,
  };
}
