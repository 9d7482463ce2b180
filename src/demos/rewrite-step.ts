// The editor's Rewrite: the workspace's model suggests a better title and text for one step; nothing is saved here.
import { z } from 'zod';
import type { AiSettingsFor } from '../ai/ai.service';
import { notSetUp } from '../ai/ai.service';
import type { AuthContext } from '../auth/permissions';
import { AppError, notFound } from '../core/errors';
import type { Database } from '../db/client';
import { type AiSettings, AiWriterError, chatCompletion, parseJson } from '../generation/ai-chat';
import * as repo from './demos.repo';

/** What Rewrite is built from: the database (to read the step and its neighbours) and the model resolver. */
export interface StepRewriteDeps {
  database: Pick<Database, 'db'>;
  /** The ai module's answer, read when called (ai is built before demos, but named lazily all the same). */
  settingsFor: AiSettingsFor;
}

/** A suggestion for one step: the editor shows it, and applies it as an ordinary edit (so undo works). */
export interface StepSuggestion {
  title: string;
  description: string;
  model: string;
}

export const TITLE_MAX = 60;
export const DESCRIPTION_MAX = 300;

const SYSTEM_PROMPT = [
  'You improve one step of an interactive product demo: a guided click-through tour of a website that a product marketer sends to prospects.',
  'You get the demo, the step (its page, its current title and text, the element it highlights) and the titles of the steps around it.',
  `Write a better title (at most ${TITLE_MAX} characters, no trailing period) and text (one or two sentences, at most ${DESCRIPTION_MAX} characters)`,
  'for a first-time viewer, like a friendly, confident product marketer: one idea, what the viewer sees or can do here, and why it matters.',
  'Use only facts present in the input: never invent features, prices, numbers, names or claims. Quote button labels as they appear.',
  'Do not repeat the title in the text, and do not repeat the neighbouring steps. Follow the editor’s instruction when there is one.',
  'Answer with JSON only: {"title": "...", "description": "..."}.',
].join(' ');

const RESPONSE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'description'],
  properties: { title: { type: 'string' }, description: { type: 'string' } },
};

const replySchema = z
  .object({
    title: z.string().trim().min(1).max(TITLE_MAX),
    description: z.string().trim().min(1).max(DESCRIPTION_MAX),
  })
  .strict();

/**
 * Rewrite for the editor: reads the step with its neighbours, asks the workspace's model (ai module), and
 * answers its suggestion. No model set up: 409 saying where to set one up. A model that fails (after one
 * retry): 503 with the reason in words. Saves nothing, so the editor's undo covers what it applies.
 *
 * @example
 * const rewrites = createStepRewrites({ database: kernel.database, settingsFor: (id) => deps.ai.settingsFor(id) });
 * const { title, description } = await rewrites.suggest(auth, 'demo_01...', 'step_01...', 'shorter');
 */
export function createStepRewrites(deps: StepRewriteDeps) {
  async function suggest(auth: AuthContext, demoId: string, stepId: string, instruction?: string): Promise<StepSuggestion> {
    const loaded = await repo.loadDemo(deps.database.db, auth.workspaceId, demoId);
    if (!loaded) throw notFound('Demo');
    const steps = [...loaded.steps].sort((a, b) => a.position - b.position);
    const index = steps.findIndex((s) => s.id === stepId);
    if (index < 0) throw notFound('Step');
    const settings = await deps.settingsFor(auth.workspaceId);
    if (!settings) throw notSetUp();
    const step = steps[index]!;
    const facts = {
      demo: { title: loaded.demo.title, source_url: loaded.demo.sourceUrl ?? undefined },
      step: {
        number: index + 1,
        of: steps.length,
        page_url: step.pageUrl ?? undefined,
        title: step.title,
        description: step.description,
        highlights: loaded.hotspots
          .filter((h) => h.stepId === step.id)
          .map((h) => ({ label: h.label || undefined, tooltip: h.tooltip || undefined, selector: h.selector ?? undefined })),
      },
      previous_step: steps[index - 1]?.title || undefined,
      next_step: steps[index + 1]?.title || undefined,
      ...(instruction ? { instruction } : {}),
    };
    return ask(settings, JSON.stringify(facts));
  }

  return { suggest };
}

export type StepRewritesService = ReturnType<typeof createStepRewrites>;

async function ask(settings: AiSettings, facts: string): Promise<StepSuggestion> {
  const messages = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: facts },
  ];
  let format: object = { type: 'json_schema', json_schema: { name: 'demo_step', strict: true, schema: RESPONSE_SCHEMA } };
  let last: AiWriterError | undefined;
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      const reply = await chatCompletion(settings, { messages, temperature: 0.7, response_format: format }, settings.timeoutMs ?? 20_000);
      const parsed = replySchema.safeParse(parseJson(reply.content));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AiWriterError(`the reply did not match the expected shape (${issue?.path.join('.') || 'root'}: ${issue?.message})`);
      }
      return { ...parsed.data, model: reply.model ?? settings.model };
    } catch (error) {
      if (!(error instanceof AiWriterError)) throw error;
      last = error;
      if (!last.retryable) break;
      // Some compatible servers know json_object but not json_schema: the retry asks for the simpler one.
      if (/HTTP 400/.test(last.message)) format = { type: 'json_object' };
    }
  }
  throw new AppError('unavailable', `The AI model could not rewrite this step: ${last!.message}. Try again, or check Settings → AI.`);
}
