// The story fields of a step as answers give them (the editor's steps and the viewer payload): buttons with
// their actions' targets as step numbers, and the form as stored.
import { z } from 'zod';
import { type HotspotAction, HOTSPOT_ACTIONS } from './demos.tables';
import { BUTTON_STYLES, CTA_KINDS, FORM_FIELD_TYPES, type StepContent } from './story.schemas';

/** An action as answers give it: `goto`/`submit` targets are step numbers (null when the step is gone). */
export const actionAnswerSchema = z
  .object({
    type: z.enum(HOTSPOT_ACTIONS),
    target: z.union([z.number(), z.string()]).nullable().meta({
      description:
        '`goto` and `submit`: the step number (null: no step, or a deleted one); `chapter`: the chapter id; ' +
        '`url` and `demo`: the address; otherwise null.',
    }),
  })
  .meta({ id: 'ActionAnswer', examples: [{ type: 'goto', target: 3 }] });

/**
 * A stored action (hotspot or button) as answers give it: `goto`/`submit` targets as step numbers (null when
 * the step is gone), the others as stored. `numbers` maps step ids to their current numbers.
 */
export function actionAnswer(type: HotspotAction, target: string | null, numbers: ReadonlyMap<string, number>) {
  if (type === 'goto' || type === 'submit') return { type, target: target ? (numbers.get(target) ?? null) : null };
  if (type === 'next' || type === 'end' || type === 'restart') return { type, target: null };
  return { type, target };
}

export const buttonAnswerSchema = z
  .object({
    id: z.string(),
    label: z.string(),
    description: z.string().optional(),
    style: z.enum(BUTTON_STYLES),
    cta: z.enum(CTA_KINDS).optional(),
    action: actionAnswerSchema,
  })
  .meta({
    id: 'StoryButtonAnswer',
    examples: [{ id: 'book', label: 'Book a meeting', style: 'primary', cta: 'book_meeting', action: { type: 'url', target: 'https://acme.com/meet' } }],
  });

export const formAnswerSchema = z
  .object({
    fields: z.array(
      z.object({
        name: z.string(),
        label: z.string(),
        type: z.enum(FORM_FIELD_TYPES),
        required: z.boolean(),
        placeholder: z.string().optional(),
        options: z.array(z.string()).optional(),
        param: z.string().optional(),
      }),
    ),
    submit_label: z.string(),
    gate: z.boolean(),
    skippable: z.boolean(),
  })
  .meta({
    id: 'FormAnswer',
    examples: [
      {
        fields: [
          { name: 'email', label: 'Work e-mail', type: 'email', required: true },
          { name: 'utm_source', label: '', type: 'hidden', required: false, param: 'utm_source' },
        ],
        submit_label: 'Continue',
        gate: false,
        skippable: true,
      },
    ],
  });

export const stepContentAnswerSchema = z
  .object({
    buttons: z.array(buttonAnswerSchema),
    form: formAnswerSchema.optional().meta({ description: 'Only on a `form` step.' }),
  })
  .meta({
    id: 'StepContentAnswer',
    examples: [{ buttons: [{ id: 'start', label: 'Start the tour', style: 'primary', action: { type: 'next', target: null } }] }],
  });

/** The buttons of stored content as answers give them: `numbers` maps step ids to their numbers. */
export function buttonsAnswer(content: StepContent, numbers: ReadonlyMap<string, number>) {
  return (content.buttons ?? []).map((b) => ({
    id: b.id,
    label: b.label,
    ...(b.description ? { description: b.description } : {}),
    style: b.style ?? 'primary',
    ...(b.cta ? { cta: b.cta } : {}),
    action: actionAnswer(b.action.type, typeof b.action.target === 'string' ? b.action.target : null, numbers),
  }));
}

/** Stored content as answers give it. */
export function contentAnswer(content: StepContent, numbers: ReadonlyMap<string, number>) {
  return { buttons: buttonsAnswer(content, numbers), ...(content.form ? { form: content.form } : {}) };
}
