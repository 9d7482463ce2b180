// The story a demo tells, as the API speaks it: step kinds, chapters, buttons and their actions, lead forms, page patches.
// A linear demo is the graph whose every action is `next` (docs/interactive-demos.md).
import { z } from 'zod';
import { text } from '../core/text';

/**
 * What a step is. `page`: a captured screen (image or HTML snapshot) with hotspots, the only kind before
 * interactive demos and the default. `cover`: title, text and a start button over the brand. `chapter_menu`:
 * one button per chapter, the viewer chooses and comes back. `form`: a lead form. `end`: an end screen whose
 * buttons are the calls to action.
 */
export const STEP_KINDS = ['page', 'cover', 'chapter_menu', 'form', 'end'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/**
 * What a hotspot or a button does. `next`: the next step in order (at a chapter's end, back to the chapter
 * menu the viewer came from). `goto`: a step (number or id in requests, number in answers). `chapter`: the
 * first step of a chapter (its id). `url`: an http(s) address, opened in a new tab. `submit`: sends the
 * step's form, then goes on as `next`, or to the step in `target` when given. `end`: finishes the demo (the
 * first `end` step after this one, else the built-in end card). `restart`: back to step 1. `demo`: another
 * demo, by the http(s) address of its share link.
 */
export const ACTION_TYPES = ['next', 'goto', 'chapter', 'url', 'submit', 'end', 'restart', 'demo'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const actionSchema = z
  .object({
    type: z.enum(ACTION_TYPES),
    target: z
      .union([z.number().int().min(1), text().max(2048)])
      .nullable()
      .optional()
      .meta({
        description:
          '`goto` and `submit`: a step number or step id; `chapter`: a chapter id; `url` and `demo`: an http(s) ' +
          'address; otherwise none.',
      }),
  })
  .strict()
  .meta({ id: 'Action' });
export type ActionInput = z.infer<typeof actionSchema>;

/** How a button looks; `kind` says what a call to action is for, for analytics and the end screen's layout. */
export const BUTTON_STYLES = ['primary', 'secondary', 'link'] as const;
export const CTA_KINDS = ['book_meeting', 'sign_up', 'link', 'restart', 'demo', 'other'] as const;

export const buttonSchema = z
  .object({
    id: text()
      .regex(/^[a-z0-9_-]{1,40}$/, 'must be 1-40 lowercase letters, digits, - or _')
      .meta({ description: 'Stable within the step: clicks per call to action are counted by it.' }),
    label: text().trim().min(1).max(80),
    description: text().trim().max(300).optional(),
    style: z.enum(BUTTON_STYLES).default('primary'),
    cta: z.enum(CTA_KINDS).optional(),
    action: actionSchema,
  })
  .strict()
  .meta({ id: 'StoryButton' });
export type StoryButton = z.infer<typeof buttonSchema>;

export const FORM_FIELD_TYPES = ['text', 'email', 'phone', 'select', 'checkbox', 'hidden'] as const;

/**
 * A field of a lead form. Names such as `email`, `name`, `first_name`, `last_name`, `company` also set the
 * personalisation variables of the same name and identify the viewer. A `hidden` field is filled from the
 * URL parameter `param` (default: its name), for UTM tags. A `checkbox` field's label is its consent text.
 */
export const formFieldSchema = z
  .object({
    name: text().regex(/^[a-z][a-z0-9_]{0,39}$/, 'must start with a letter: lowercase letters, digits and _ (at most 40)'),
    label: text().trim().max(300).default(''),
    type: z.enum(FORM_FIELD_TYPES),
    required: z.boolean().default(false),
    placeholder: text().trim().max(120).optional(),
    options: z.array(text().trim().min(1).max(120)).min(1).max(50).optional().meta({ description: '`select` only.' }),
    param: text().max(60).optional().meta({ description: '`hidden` only: the URL parameter that fills it.' }),
  })
  .strict()
  .meta({ id: 'FormField' });
export type FormField = z.infer<typeof formFieldSchema>;

export const formSchema = z
  .object({
    fields: z.array(formFieldSchema).min(1).max(20),
    submit_label: text().trim().min(1).max(80).default('Continue'),
    /** Stands in for the link's identification gate: a viewer who sent it counts as identified. */
    gate: z.boolean().default(false),
    skippable: z.boolean().default(false).meta({ description: 'Offers a "Skip" button (never on a gate form).' }),
  })
  .strict()
  .meta({ id: 'Form' });
export type StoryForm = z.infer<typeof formSchema>;

/** What a step holds beside its text: the buttons of every kind, and the form of a `form` step. */
export const stepContentSchema = z
  .object({
    buttons: z.array(buttonSchema).max(8).default([]),
    form: formSchema.optional(),
  })
  .strict()
  .meta({ id: 'StepContent' });
export type StepContent = z.infer<typeof stepContentSchema>;

/**
 * An edit to the captured page of an HTML step, applied when the snapshot is served (editor and player see
 * the same page). `text`: the element's text becomes `value`. `hide`: the element is removed from view.
 * `image`: an `<img>`'s source becomes the asset in `value` (uploaded to the demo).
 */
export const PATCH_OPS = ['text', 'hide', 'image'] as const;
export const pagePatchSchema = z
  .object({
    selector: text().min(1).max(1000),
    op: z.enum(PATCH_OPS),
    value: text().max(5000).optional(),
  })
  .strict()
  .meta({ id: 'PagePatch' });
export type PagePatch = z.infer<typeof pagePatchSchema>;

/** `{{name}}` or `{{name|fallback}}`: names as form fields; the fallback is plain text up to the `}}`. */
export const VARIABLE_PATTERN = /\{\{\s*([a-z][a-z0-9_]{0,39})\s*(?:\|([^{}]*))?\}\}/g;
