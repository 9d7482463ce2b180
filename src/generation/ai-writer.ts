import { request } from 'undici';
import { z } from 'zod';
import type { CapturedPage } from './generation.types';
import type { PlannedStep } from './step-planner';
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
  plan: PlannedStep[];
  /** The built-in writer's text: the model improves it, and it is what stays if the model fails. */
  draft: StepCopy[];
  /** Epoch milliseconds by which the writing must be done. */
  deadline: number;
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
  'You write the steps of an interactive product demo (a guided click-through tour of a website).',
  'You get the site name and, for each step, the page, the element the step points at, what that element contains, and a draft.',
  'Rewrite each step to sound like a friendly, confident product marketer guiding a first-time visitor:',
  'a short title (at most 60 characters), a description of one to three sentences (at most 300 characters),',
  'and a tooltip shown on the highlighted element (at most 100 characters).',
  'Use only facts present in the input: never invent features, prices, numbers or names.',
  'Keep the order and the number of steps exactly. Quote button labels as they appear.',
  'Answer with JSON only: {"steps": [{"title": "...", "description": "...", "tooltip": "..."}]}.',
].join(' ');

const replyStep = z.object({
  title: z.string().trim().min(1).max(90),
  description: z.string().trim().min(1).max(400),
  tooltip: z.string().trim().min(1).max(160),
}).strict();

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
        required: ['title', 'description', 'tooltip'],
        properties: { title: { type: 'string' }, description: { type: 'string' }, tooltip: { type: 'string' } },
      },
    },
  },
};

/**
 * Step text from an OpenAI-compatible chat API (`POST {AI_BASE_URL}/chat/completions`). The address is
 * the operator's own setting, so it does not go through the SSRF guard; the call still has a timeout, a
 * reply size cap, one retry, and a strict check of the reply. Any failure throws AiWriterError.
 */
export function createAiWriter(settings: AiSettings): (input: AiWriterInput) => Promise<StepCopy[]> {
  const endpoint = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;

  return async function writeWithAi(input: AiWriterInput): Promise<StepCopy[]> {
    const replySchema = z.object({ steps: z.array(replyStep).length(input.plan.length) }).strict();
    const messages = [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: JSON.stringify(describeTour(input)) },
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
        return parsed.data.steps.map((step, i) => ({ ...step, label: input.draft[i]!.label }));
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

/** What the model sees: the facts of each step, and the built-in draft to improve on. */
function describeTour(input: AiWriterInput) {
  return {
    site: siteName(input.pages),
    steps: input.plan.map((step, i) => ({
      number: i + 1,
      part: step.role,
      page: { title: step.page.title, url: step.page.url, description: step.page.description || undefined },
      element: {
        kind: step.element.kind,
        text: step.element.text,
        ...(step.element.items ? { contains: step.element.items } : {}),
        ...(step.element.context ? { nearby_text: step.element.context } : {}),
        ...(step.element.detail ? { detail: step.element.detail } : {}),
      },
      draft: { title: input.draft[i]!.title, description: input.draft[i]!.description, tooltip: input.draft[i]!.tooltip },
    })),
  };
}
