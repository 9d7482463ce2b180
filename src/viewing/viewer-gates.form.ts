// The lead forms of the version a link serves, and what a lead submission changes on the viewer's side:
// the form that stands in for the identification gate, and who the viewer is once they sent one.
import type { Executor } from '../db/client';
import type { DemoContent } from '../demos/demo-snapshot';
import type { FormField, StoryForm } from '../demos/story.schemas';
import type { ShareRow } from '../shares/shares.schemas';
import type { ViewerGatesDeps } from './viewer-gates';
import { writeIdentity } from './viewer-gates.identification';
import * as repo from './viewer.repo';

/** A `form` step of a published version: its number there, its id, its form. */
export interface FormStep {
  stepNumber: number;
  stepId: string;
  form: StoryForm;
}

/** The lead forms of a version's steps, by step number (a step's number is its position). */
export function formsOf(steps: readonly Pick<DemoContent['steps'][number], 'id' | 'position' | 'kind' | 'content'>[]): ReadonlyMap<number, FormStep> {
  const forms = new Map<number, FormStep>();
  for (const step of steps) {
    if (step.kind === 'form' && step.content.form) {
      forms.set(step.position, { stepNumber: step.position, stepId: step.id, form: step.content.form });
    }
  }
  return forms;
}

/** The field whose value is the viewer's e-mail address: the one named `email`, else the first of type email. */
export function emailFieldOf(form: StoryForm): FormField | undefined {
  return form.fields.find((f) => f.name === 'email') ?? form.fields.find((f) => f.type === 'email');
}

/**
 * The form that stands in for the identification gate: the first form step marked `gate` that asks for an
 * e-mail address (without one it could not identify anybody, so the name-and-e-mail gate stays).
 */
export function gateFormOf(forms: ReadonlyMap<number, FormStep>): FormStep | undefined {
  return [...forms.values()]
    .sort((a, b) => a.stepNumber - b.stepNumber)
    .find((f) => f.form.gate && emailFieldOf(f.form) !== undefined);
}

/**
 * In a lead's transaction: the viewer's session (and their view, where it has nobody yet) now names them,
 * `viewer.identified` as the identification gate writes it. Answers the view's id,
 * if the session has a view.
 */
export async function identifyByLead(
  deps: Pick<ViewerGatesDeps, 'clock'>,
  tx: Executor,
  share: ShareRow,
  sessionId: string,
  viewer: { email: string; name: string | null },
) {
  // The lead's own notice tells the members who this is: no second "opened your demo" e-mail for it.
  await writeIdentity({ clock: deps.clock }, tx, share, sessionId, viewer);
  return repo.nameSessionView(tx, sessionId, viewer);
}

/** The view of a session, if the viewer has sent events already. */
export const viewOfSession = (deps: Pick<ViewerGatesDeps, 'database'>, tx: Executor | undefined, sessionId: string) =>
  repo.findSessionView(tx ?? deps.database.db, sessionId);
