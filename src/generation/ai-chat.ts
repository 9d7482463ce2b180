// The one client of OpenAI-compatible chat APIs: generation's writer, the editor's rewrite and the settings' connection test use it.
import { request } from 'undici';
import { z } from 'zod';
import { BlockedUrlError, type SafeFetch } from '../core/net/safe-fetch';

/** An OpenAI-compatible chat API: the instance's (AI_* variables) or a workspace's (Settings → AI). */
export interface AiSettings {
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Per request. Default 20 s. */
  timeoutMs?: number;
  /**
   * The SSRF guard, for an address a workspace admin typed: the call then goes through it, and a private
   * address is refused unless ALLOW_PRIVATE_NETWORK_CIDRS opens it. Absent for the operator's own AI_BASE_URL.
   */
  net?: SafeFetch;
}

/** Why the model's answer could not be used, in words for the person who configured it. */
export class AiWriterError extends Error {
  override name = 'AiWriterError';
  constructor(
    message: string,
    /** False when trying again cannot help (a refused key, a refused address, no time left). */
    readonly retryable = true,
  ) {
    super(message);
  }
}

const MAX_REPLY_BYTES = 1024 * 1024;

const completionSchema = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullable().optional(), refusal: z.string().nullable().optional() }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
});

/** What a chat completion answered: the first choice's text, and the model the server says it ran. */
export interface ChatReply {
  content: string;
  model: string | undefined;
}

/**
 * One `POST {baseUrl}/chat/completions` with a timeout and a 1 MB reply cap. Any failure throws
 * AiWriterError with a message that says what to check (the key, the address, the model).
 *
 * @example
 * ```ts
 * import { chatCompletion } from './ai-chat';
 *
 * const settings = { baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-...', model: 'gpt-4o-mini' };
 * const { content } = await chatCompletion(settings, { messages: [{ role: 'user', content: 'Say ok' }] }, 10_000);
 * ```
 */
export async function chatCompletion(settings: AiSettings, body: object, timeoutMs: number): Promise<ChatReply> {
  const endpoint = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const { status, text } = await post(endpoint, settings, JSON.stringify({ model: settings.model, ...body }), timeoutMs);
  if (status === 401 || status === 403) {
    throw new AiWriterError(`the API refused the key (HTTP ${status}${said(text)}): check the key, or make a new one`, false);
  }
  if (status === 404) {
    throw new AiWriterError(`the API answered HTTP 404${said(text)}: check the base URL (it usually ends in /v1) and the model name`);
  }
  if (status !== 200) throw new AiWriterError(`the API answered HTTP ${status}${said(text)}`);
  const reply = completionSchema.safeParse(parseJson(text));
  if (!reply.success) throw new AiWriterError('the API answer is not a chat completion: check that the base URL is an OpenAI-compatible API');
  const choice = reply.data.choices[0]!;
  if (choice.message.refusal) throw new AiWriterError('the model refused');
  if (choice.finish_reason === 'length') throw new AiWriterError('the reply was cut off');
  if (!choice.message.content) throw new AiWriterError('the reply was empty');
  return { content: choice.message.content, model: reply.data.model };
}

/**
 * The reply as JSON. Models asked for JSON still sometimes fence it; the fence is the only leniency.
 *
 * @example parseJson('```json\n{"a":1}\n```') // { a: 1 }
 */
export function parseJson(text: string): unknown {
  const unfenced = text.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1');
  try {
    return JSON.parse(unfenced);
  } catch {
    throw new AiWriterError('the reply was not JSON');
  }
}

/** The provider's own error message, when it sent one (`{"error": {"message": ...}}`), cut short. */
function said(text: string): string {
  let message: unknown;
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
  } catch {
    return '';
  }
  if (typeof message !== 'string' || !message.trim()) return '';
  const clean = message.replace(/\s+/g, ' ').trim();
  return `: “${clean.length > 160 ? `${clean.slice(0, 159)}…` : clean}”`;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

async function post(endpoint: string, settings: AiSettings, body: string, timeoutMs: number): Promise<{ status: number; text: string }> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${settings.apiKey}`, accept: 'application/json' };
  if (settings.net) {
    try {
      const res = await settings.net.fetch(endpoint, { method: 'POST', headers, body, timeoutMs, maxBytes: MAX_REPLY_BYTES, maxRedirects: 0 });
      if (res.truncated) throw new AiWriterError('the reply was larger than 1 MB');
      return { status: res.status, text: res.body.toString('utf8') };
    } catch (error) {
      throw unreachable(error, timeoutMs);
    }
  }
  let res: Awaited<ReturnType<typeof request>>;
  try {
    res = await request(endpoint, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  } catch (error) {
    throw unreachable(error, timeoutMs);
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
    throw new AiWriterError(`no complete answer within ${seconds(timeoutMs)}`);
  }
  return { status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') };
}

/** A failed exchange in words: a refused address names the setting that opens it, a refused connection the server. */
function unreachable(error: unknown, timeoutMs: number): AiWriterError {
  if (error instanceof AiWriterError) return error;
  const cause = (error as { cause?: unknown }).cause;
  const blocked = error instanceof BlockedUrlError ? error : cause instanceof BlockedUrlError ? cause : undefined;
  if (blocked) {
    return new AiWriterError(
      `${blocked.message}. An operator can allow private addresses with ALLOW_PRIVATE_NETWORK_CIDRS (for a model on this machine, 127.0.0.1/32)`,
      false,
    );
  }
  const name = (error as Error).name;
  if (name === 'TimeoutError' || name === 'AbortError') return new AiWriterError(`no answer within ${seconds(timeoutMs)}`);
  const code = (error as NodeJS.ErrnoException).code ?? (cause as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ECONNREFUSED') return new AiWriterError('the connection was refused: is the API server running at this address?');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new AiWriterError('the host name of the base URL does not resolve');
  return new AiWriterError(`the API could not be reached (${(error as Error).message})`);
}
