// A step's story fields as a request gives them, checked against the demo and turned into columns: button
// actions resolved as hotspot actions are, the chapter checked to be the demo's, rich text sanitised, and
// the rule that a `form` step has a form and no other kind does.
import type { ErrorDetail } from '../core/errors';
import { invalid } from '../core/errors';
import type { StepRow } from './demos.repo';
import { resolveAction } from './hotspot-action';
import { richTextField } from './rich-text';
import type { PagePatch, StepContent, StepKind } from './story.schemas';

/** The story fields of a step request; undefined leaves a field as it is. */
export interface StepStoryInput {
  kind?: StepKind;
  chapterId?: string | null;
  content?: StepContent;
  patches?: PagePatch[];
  descriptionHtml?: string | null;
}

/** What the story fields become on the step's row (only those the request changes). */
export interface StepStoryColumns {
  kind?: StepKind;
  chapterId?: string | null;
  content?: StepContent;
  patches?: PagePatch[];
  descriptionHtml?: string | null;
  description?: string;
}

/** The plain description's limit (steps.schemas.ts): the text of `description_html` is cut to it. */
const DESCRIPTION_MAX = 5000;

/**
 * Checks `input` against the demo's `steps` and `chapterIds` and answers the columns to write. `current` is
 * the step being edited (undefined for a new one). Throws a 400 naming the field at the first problem.
 */
export function resolveStepStory(
  input: StepStoryInput,
  current: Pick<StepRow, 'kind' | 'content'> | undefined,
  steps: Pick<StepRow, 'id' | 'position'>[],
  chapterIds: readonly string[],
): StepStoryColumns {
  const out: StepStoryColumns = {};
  if (input.kind !== undefined) out.kind = input.kind;
  if (input.chapterId !== undefined) {
    if (input.chapterId !== null && !chapterIds.includes(input.chapterId)) {
      throw invalid('chapter_id is not a chapter of this demo', [{ field: 'chapter_id', message: 'is not a chapter of this demo' }]);
    }
    out.chapterId = input.chapterId;
  }
  if (input.content !== undefined) out.content = resolveContent(input.content, steps, chapterIds);
  if (input.patches !== undefined) out.patches = input.patches;
  if (input.descriptionHtml !== undefined) {
    if (input.descriptionHtml === null) out.descriptionHtml = null;
    else {
      const { html, text } = richTextField(input.descriptionHtml, DESCRIPTION_MAX);
      out.descriptionHtml = html;
      out.description = text;
    }
  }

  const kind = out.kind ?? current?.kind ?? 'page';
  const content = out.content ?? current?.content ?? { buttons: [] };
  if (kind === 'form' && !content.form) {
    throw invalid('A form step needs a form: send content.form', [{ field: 'content.form', message: 'is required on a form step' }]);
  }
  if (kind !== 'form' && content.form) {
    if (input.content?.form) {
      throw invalid(`Only a form step has a form; this one is a ${kind} step`, [
        { field: 'content.form', message: `is only allowed on a form step (kind is ${kind})` },
      ]);
    }
    // The kind changed away from `form` without new content: the form goes with it.
    const { form: _, ...rest } = content;
    out.content = rest as StepContent;
  }
  return out;
}

function resolveContent(content: StepContent, steps: Pick<StepRow, 'id' | 'position'>[], chapterIds: readonly string[]): StepContent {
  const details: ErrorDetail[] = [];
  const ids = new Set<string>();
  content.buttons.forEach((b, i) => {
    if (ids.has(b.id)) details.push({ field: `content.buttons.${i}.id`, message: `${b.id} is used by another button of this step` });
    ids.add(b.id);
  });
  if (content.form) {
    const names = new Set<string>();
    content.form.fields.forEach((f, i) => {
      if (names.has(f.name)) details.push({ field: `content.form.fields.${i}.name`, message: `${f.name} is used by another field` });
      names.add(f.name);
      if (f.type === 'select' && !f.options?.length) {
        details.push({ field: `content.form.fields.${i}.options`, message: 'a select field needs options' });
      }
    });
    if (content.form.gate && content.form.skippable) {
      details.push({ field: 'content.form.skippable', message: 'a gate form cannot be skipped' });
    }
  }
  if (details.length > 0) throw invalid('The step content is not valid', details);
  const buttons = content.buttons.map((b, i) => {
    const { actionType, actionTarget } = resolveAction(b.action, steps, chapterIds, `content.buttons.${i}.action`);
    return { ...b, action: { type: actionType, target: actionTarget } };
  });
  return { ...content, buttons };
}
