// Request and response schemas of POST /v1/demos/:id/steps/:step_id/rewrite.
import { z } from 'zod';
import { text } from '../core/text';
import { DESCRIPTION_MAX, TITLE_MAX } from './rewrite-step';

export const rewriteStepBody = z
  .object({
    instruction: text()
      .trim()
      .max(200)
      .optional()
      .meta({ description: 'What to aim for, in the editor’s words (“shorter”, “mention the free trial”); optional.', examples: ['shorter'] }),
  })
  .strict()
  // No body at all arrives as null.
  .nullish()
  .meta({ description: 'Optional guidance for the rewrite.', examples: [{ instruction: 'shorter' }, {}] });

export const stepSuggestionSchema = z
  .object({
    title: z.string().meta({ description: `The suggested title, at most ${TITLE_MAX} characters.` }),
    description: z.string().meta({ description: `The suggested text, at most ${DESCRIPTION_MAX} characters.` }),
    model: z.string().meta({ description: 'The model that wrote it, as the API names it.' }),
  })
  .meta({
    id: 'StepSuggestion',
    examples: [{ title: 'Start your free trial in one click', description: 'No card needed: “Start free trial” opens a workspace with sample demos.', model: 'gpt-4o-mini' }],
  });
