// The optional model-written tour: used when the instance (AI_*) or the workspace (Settings → AI) names a model; any failure falls back to the built-in writer (step-writer.ts).
import { z } from 'zod';
import { type AiSettings, AiWriterError, chatCompletion, parseJson } from './ai-chat';
import type { CapturedPage } from './generation.types';
import { MAX_STEPS, MIN_STEPS, type PlannedStep } from './step-planner';
import { type StepCopy, siteName } from './step-writer';

export interface AiWriterInput {
  pages: CapturedPage[];
  /** Every step the pages offer, in tour order: the model chooses among these. */
  candidates: PlannedStep[];
  /** The built-in writer's text for each candidate: the model improves on it. */
  drafts: StepCopy[];
  /** The candidates the built-in planner chose, suggested to the model. */
  suggested: PlannedStep[];
  /** Epoch milliseconds by which the writing must be done. */
  deadline: number;
}

/** The model's tour: the steps it chose (in tour order) and their words. */
export interface AiTour {
  plan: PlannedStep[];
  copies: StepCopy[];
}

const SYSTEM_PROMPT = [
  'You plan and write an interactive product demo: a guided click-through tour of a website.',
  'You get the site name and a numbered list of candidate steps, each an element of a captured page (the page, what part it plays,',
  'its text and what it contains) with a draft; the drafts marked "suggested" are a plan made by rules.',
  `Choose the ${MIN_STEPS} to ${MAX_STEPS} candidates that make the best tour for a first-time visitor: what the product is, what to do,`,
  'where things are, what it does, what it costs, how to join. Leave out candidates that would bore or confuse. Keep the pages in the',
  'order given, and each page\'s steps together.',
  'For each chosen step write, like a friendly, confident product marketer:',
  'a short title (at most 60 characters), a description of one to three sentences (at most 300 characters),',
  'and a tooltip shown on the highlighted element (at most 100 characters).',
  'Use only facts present in the input: never invent features, prices, numbers or names. Quote button labels as they appear.',
  'Answer with JSON only: {"steps": [{"candidate": 1, "title": "...", "description": "...", "tooltip": "..."}]}.',
].join(' ');

const replyStep = z
  .object({
    candidate: z.number().int().min(1),
    title: z.string().trim().min(1).max(90),
    description: z.string().trim().min(1).max(400),
    tooltip: z.string().trim().min(1).max(160),
  })
  .strict();

/** The JSON schema sent as response_format; it says what replyStep checks. */
const RESPONSE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['steps'],
  properties: {
    steps: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['candidate', 'title', 'description', 'tooltip'],
        properties: { candidate: { type: 'integer' }, title: { type: 'string' }, description: { type: 'string' }, tooltip: { type: 'string' } },
      },
    },
  },
};

export type { AiSettings } from './ai-chat';
export { AiWriterError } from './ai-chat';

/**
 * Step text from an OpenAI-compatible chat API (`POST {baseUrl}/chat/completions`, ai-chat.ts): through
 * the SSRF guard when a workspace gave the address, directly for the operator's AI_BASE_URL; with a
 * timeout, a reply size cap, one retry, and a strict check of the reply. Any failure throws AiWriterError.
 */
export function createAiWriter(settings: AiSettings): (input: AiWriterInput) => Promise<AiTour> {
  return async function writeWithAi(input: AiWriterInput): Promise<AiTour> {
    const count = input.candidates.length;
    const replySchema = z
      .object({ steps: z.array(replyStep).min(Math.min(MIN_STEPS, count)).max(MAX_STEPS) })
      .strict()
      .superRefine((reply, ctx) => {
        const chosen = reply.steps.map((s) => s.candidate);
        if (chosen.some((n) => n > count)) ctx.addIssue({ code: 'custom', path: ['steps'], message: `a candidate number is not between 1 and ${count}` });
        if (new Set(chosen).size !== chosen.length) ctx.addIssue({ code: 'custom', path: ['steps'], message: 'a candidate was chosen twice' });
      });
    const messages = [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: JSON.stringify(describeCandidates(input)) },
    ];
    let format: object = { type: 'json_schema', json_schema: { name: 'demo_steps', strict: true, schema: RESPONSE_SCHEMA } };
    let last: AiWriterError | undefined;
    for (let attempt = 1; attempt <= 2; attempt++) {
      const remaining = input.deadline - Date.now();
      if (remaining < 1_000) throw last ?? new AiWriterError('no time was left for the AI writer', false);
      try {
        const { content } = await chatCompletion(settings, { messages, temperature: 0.4, response_format: format }, Math.min(settings.timeoutMs ?? 20_000, remaining));
        const parsed = replySchema.safeParse(parseJson(content));
        if (!parsed.success) throw new AiWriterError(`the reply did not match the expected shape (${parsed.error.issues[0]?.path.join('.') || 'root'}: ${parsed.error.issues[0]?.message})`);
        return toTour(input, parsed.data.steps);
      } catch (error) {
        last = error instanceof AiWriterError ? error : new AiWriterError((error as Error).message);
        if (!last.retryable) throw last;
        // Some compatible servers know json_object but not json_schema: the retry asks for the simpler one.
        if (/HTTP 400/.test(last.message)) format = { type: 'json_object' };
      }
    }
    throw last!;
  };
}

/**
 * The chosen candidates in tour order whatever order the model gave (pages as visited, each page's steps
 * together, the model's order within a page), with the model's words and the built-in hotspot label.
 */
function toTour(input: AiWriterInput, steps: Array<z.infer<typeof replyStep>>): AiTour {
  const chosen = steps
    .map((step, order) => ({ step, order, planned: input.candidates[step.candidate - 1]! }))
    .sort((a, b) => a.planned.pageIndex - b.planned.pageIndex || a.order - b.order);
  return {
    plan: chosen.map((c) => c.planned),
    copies: chosen.map(({ step }) => ({ title: step.title, description: step.description, tooltip: step.tooltip, label: input.drafts[step.candidate - 1]!.label })),
  };
}

/** What the model sees: every candidate with its facts and the built-in draft, the rules' choice marked. */
function describeCandidates(input: AiWriterInput) {
  const key = (step: PlannedStep) => `${step.pageIndex} ${step.element.selector}`;
  const suggested = new Set(input.suggested.map(key));
  return {
    site: siteName(input.pages),
    pages: input.pages.map((page, i) => ({ number: i + 1, title: page.title, url: page.url, description: page.description || undefined })),
    candidates: input.candidates.map((step, i) => ({
      candidate: i + 1,
      page: step.pageIndex + 1,
      part: step.role,
      element: {
        kind: step.element.kind,
        text: step.element.text,
        ...(step.element.items ? { contains: step.element.items } : {}),
        ...(step.element.context ? { nearby_text: step.element.context } : {}),
        ...(step.element.detail ? { detail: step.element.detail } : {}),
      },
      draft: { title: input.drafts[i]!.title, description: input.drafts[i]!.description, tooltip: input.drafts[i]!.tooltip },
      ...(suggested.has(key(step)) ? { suggested: true } : {}),
    })),
  };
}
