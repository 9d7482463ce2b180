// The optional model-written tour: used only when AI_* is configured, and any failure falls back to the built-in writer (step-writer.ts).
import { request } from 'undici';
import { z } from 'zod';
import type { CapturedPage } from './generation.types';
import { MAX_STEPS, MIN_STEPS, type PlannedStep } from './step-planner';
import { type StepCopy, siteName } from './step-writer';

export interface AiSettings {
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Per request; the call is tried twice at most. Default 20 s. */
  timeoutMs?: number;
}

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

/** Why the model's text was not used; generation falls back to the built-in writer and warns with this. */
export class AiWriterError extends Error {
  override name = 'AiWriterError';
  constructor(
    message: string,
    readonly retryable = true,
  ) {
    super(message);
  }
}

const MAX_REPLY_BYTES = 1024 * 1024;
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

/**
 * Step text from an OpenAI-compatible chat API (`POST {AI_BASE_URL}/chat/completions`). The address is
 * the operator's own setting, so it does not go through the SSRF guard; the call still has a timeout, a
 * reply size cap, one retry, and a strict check of the reply. Any failure throws AiWriterError.
 */
export function createAiWriter(settings: AiSettings): (input: AiWriterInput) => Promise<AiTour> {
  const endpoint = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;

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
        const content = await complete(endpoint, settings, { model: settings.model, messages, temperature: 0.4, response_format: format }, Math.min(settings.timeoutMs ?? 20_000, remaining));
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

async function complete(endpoint: string, settings: AiSettings, body: object, timeoutMs: number): Promise<string> {
  let res: Awaited<ReturnType<typeof request>>;
  try {
    res = await request(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${settings.apiKey}`, accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  } catch (error) {
    const name = (error as Error).name;
    throw new AiWriterError(name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${Math.round(timeoutMs / 100) / 10} s` : `the API could not be reached (${(error as Error).message})`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_REPLY_BYTES) {
        res.body.destroy();
        throw new AiWriterError('the reply was larger than 1 MB');
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof AiWriterError) throw error;
    throw new AiWriterError(`no complete answer within ${Math.round(timeoutMs / 100) / 10} s`);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (res.statusCode === 401 || res.statusCode === 403) throw new AiWriterError(`the API refused the key (HTTP ${res.statusCode})`, false);
  if (res.statusCode !== 200) throw new AiWriterError(`the API answered HTTP ${res.statusCode}`);
  const reply = z
    .object({
      choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional(), refusal: z.string().nullable().optional() }), finish_reason: z.string().nullable().optional() })).min(1),
    })
    .safeParse(parseJson(text));
  if (!reply.success) throw new AiWriterError('the API answer is not a chat completion');
  const choice = reply.data.choices[0]!;
  if (choice.message.refusal) throw new AiWriterError('the model refused');
  if (choice.finish_reason === 'length') throw new AiWriterError('the reply was cut off');
  if (!choice.message.content) throw new AiWriterError('the reply was empty');
  return choice.message.content;
}

function parseJson(text: string): unknown {
  // Models asked for JSON still sometimes fence it; the fence is the only leniency.
  const unfenced = text.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1');
  try {
    return JSON.parse(unfenced);
  } catch {
    throw new AiWriterError('the reply was not JSON');
  }
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
