import { WEBHOOK_EVENT_KINDS, type WebhookEvent } from './events.js';

/**
 * Why a delivery was refused by {@link verifyWebhook}.
 *
 * @example
 * ```ts
 * import { WebhookVerificationError, type WebhookVerificationReason } from '@demoshare/sdk';
 * const retryable: WebhookVerificationReason[] = ['timestamp_out_of_tolerance'];
 * ```
 */
export type WebhookVerificationReason =
  | 'missing_header'
  | 'invalid_signature'
  | 'timestamp_out_of_tolerance'
  | 'invalid_payload'
  | 'unknown_event';

/**
 * A delivery that does not verify, or whose body is not an event this SDK knows. Answer 400/401 for
 * every `reason` except `unknown_event`: that one was signed correctly, only its kind is newer than this
 * SDK, so acknowledge it (2xx) and update the SDK.
 *
 * @example
 * ```ts
 * import { verifyWebhook, WebhookVerificationError } from '@demoshare/sdk';
 * try {
 *   const event = await verifyWebhook({ body: raw, headers: req.headers, secret });
 * } catch (error) {
 *   if (error instanceof WebhookVerificationError) res.writeHead(error.reason === 'unknown_event' ? 204 : 401).end();
 * }
 * ```
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Request headers in any usual form: a `Headers` (fetch, Hono, Next.js) or a plain object of
 * lower-case names (Node's `req.headers`, Express, Fastify).
 *
 * @example
 * ```ts
 * import type { WebhookHeaders } from '@demoshare/sdk';
 * const fromNode = (req: import('node:http').IncomingMessage): WebhookHeaders => req.headers;
 * ```
 */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * What {@link verifyWebhook} checks.
 *
 * @example
 * ```ts
 * import { verifyWebhook, type VerifyWebhookOptions } from '@demoshare/sdk';
 * const options: VerifyWebhookOptions = { body: raw, headers: req.headers, secret: process.env.DEMOSHARE_WEBHOOK_SECRET!, toleranceSeconds: 300 };
 * const event = await verifyWebhook(options);
 * ```
 */
export interface VerifyWebhookOptions {
  /** The raw body exactly as received: bytes, or the text decoded from them. Never re-serialised JSON. */
  body: string | Uint8Array | ArrayBuffer;
  headers: WebhookHeaders;
  /**
   * The webhook's secret exactly as shown at creation (`secret`, not `standard_webhooks_secret`). Several
   * are accepted while you switch to a rotated one.
   */
  secret: string | readonly string[];
  /** How far `webhook-timestamp` may be from now, either way (default 300 s): replay protection. */
  toleranceSeconds?: number;
  /** The time to check against (default: now). */
  now?: Date | number;
}

const encoder = new TextEncoder();

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value.join(', ') : value;
}

function bytesOf(body: string | Uint8Array | ArrayBuffer): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}

/** Compares in time that depends on the length only (lengths are public: every signature has one). */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

async function hmacSha256(secret: string, message: Uint8Array): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, message as Uint8Array<ArrayBuffer>));
}

function fromHex(hex: string): Uint8Array | undefined {
  if (!/^[0-9a-f]{64}$/i.test(hex)) return undefined;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function fromBase64(text: string): Uint8Array | undefined {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

const secretsOf = (secret: string | readonly string[]) => (typeof secret === 'string' ? [secret] : [...secret]);

/**
 * Checks the contract's `X-Service-Signature` (lowercase hex HMAC-SHA256 of the raw body, keyed with the
 * secret's UTF-8 bytes), and during a rotation `X-Service-Signature-Previous`, in constant time. It has
 * no timestamp, so it does not stop replays: prefer {@link verifyWebhook}.
 *
 * @example
 * ```ts
 * import { verifyServiceSignature } from '@demoshare/sdk';
 * if (!(await verifyServiceSignature(rawBody, req.headers, secret))) return res.writeHead(401).end();
 * ```
 */
export async function verifyServiceSignature(
  body: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string | readonly string[],
): Promise<boolean> {
  const given = [header(headers, 'x-service-signature'), ...(header(headers, 'x-service-signature-previous') ?? '').split(',')]
    .map((s) => fromHex((s ?? '').trim()))
    .filter((s): s is Uint8Array => s !== undefined);
  if (given.length === 0) return false;
  const bytes = bytesOf(body);
  let matched = false;
  for (const key of secretsOf(secret)) {
    const expected = await hmacSha256(key, bytes);
    // Every pair is compared: no early exit that would tell which one matched.
    for (const signature of given) matched = constantTimeEqual(signature, expected) || matched;
  }
  return matched;
}

/**
 * Checks the Standard Webhooks headers: `webhook-signature` (space-separated `v1,<base64 HMAC-SHA256 of
 * "{webhook-id}.{webhook-timestamp}.{body}">`) against each secret in constant time, and
 * `webhook-timestamp` within the tolerance. Throws {@link WebhookVerificationError}; resolves to the
 * `webhook-id` (de-duplicate on it).
 *
 * @example
 * ```ts
 * import { verifyStandardSignature } from '@demoshare/sdk';
 * const messageId = await verifyStandardSignature({ body: rawBody, headers: req.headers, secret });
 * ```
 */
export async function verifyStandardSignature(options: VerifyWebhookOptions): Promise<string> {
  const id = header(options.headers, 'webhook-id');
  const timestamp = header(options.headers, 'webhook-timestamp');
  const signatures = header(options.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError('missing_header', 'The webhook-id, webhook-timestamp and webhook-signature headers are required');
  }
  const now = options.now === undefined ? Date.now() : new Date(options.now).getTime();
  const tolerance = (options.toleranceSeconds ?? 300) * 1000;
  const sentAt = /^\d+$/.test(timestamp) ? Number(timestamp) * 1000 : Number.NaN;
  if (!Number.isFinite(sentAt) || Math.abs(now - sentAt) > tolerance) {
    throw new WebhookVerificationError('timestamp_out_of_tolerance', 'webhook-timestamp is missing or too far from now (replayed?)');
  }
  const given = signatures
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => fromBase64(s.slice(3)))
    .filter((s): s is Uint8Array => s !== undefined);
  const body = bytesOf(options.body);
  const signed = new Uint8Array(encoder.encode(`${id}.${timestamp}.`).length + body.length);
  signed.set(encoder.encode(`${id}.${timestamp}.`));
  signed.set(body, signed.length - body.length);
  let matched = false;
  for (const key of secretsOf(options.secret)) {
    const expected = await hmacSha256(key, signed);
    for (const signature of given) matched = constantTimeEqual(signature, expected) || matched;
  }
  if (!matched) throw new WebhookVerificationError('invalid_signature', 'No webhook-signature matches the secret');
  return id;
}

const KNOWN = new Set<string>(WEBHOOK_EVENT_KINDS);

/**
 * Reads a delivery body into a typed event, checking its shape (not its signature: call it only on a
 * verified body, or use {@link verifyWebhook}). An event kind newer than this SDK throws
 * `unknown_event`.
 *
 * @example
 * ```ts
 * import { parseWebhookEvent } from '@demoshare/sdk';
 * const event = parseWebhookEvent(verifiedRawBody);
 * if (event.event === 'demo.completed') console.log(event.data.completion_time);
 * ```
 */
export function parseWebhookEvent(body: string | Uint8Array | ArrayBuffer): WebhookEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(bytesOf(body)));
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'The body is not JSON');
  }
  const event = parsed as Partial<Record<'id' | 'event' | 'timestamp' | 'data', unknown>> | null;
  if (
    typeof event !== 'object' ||
    event === null ||
    typeof event.id !== 'string' ||
    typeof event.event !== 'string' ||
    typeof event.timestamp !== 'string' ||
    typeof event.data !== 'object' ||
    event.data === null
  ) {
    throw new WebhookVerificationError('invalid_payload', 'The body is not an event ({id, event, timestamp, data})');
  }
  if (!KNOWN.has(event.event)) {
    throw new WebhookVerificationError('unknown_event', `Unknown event kind ${event.event}: update @demoshare/sdk`);
  }
  return event as WebhookEvent;
}

/**
 * Verifies a delivery and returns its typed event: the Standard Webhooks signature and timestamp
 * (replay-safe, required), the contract's `X-Service-Signature` too when present, and that the body's
 * `id` is the `webhook-id`. Pass the raw body, before any JSON parsing. De-duplicate on `event.id`:
 * the same event can arrive more than once.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { verifyWebhook, WebhookVerificationError } from '@demoshare/sdk';
 *
 * createServer(async (req, res) => {
 *   const chunks: Buffer[] = [];
 *   for await (const chunk of req) chunks.push(chunk);
 *   try {
 *     const event = await verifyWebhook({ body: Buffer.concat(chunks), headers: req.headers, secret: process.env.DEMOSHARE_WEBHOOK_SECRET! });
 *     if (event.event === 'demo.completed') console.log(event.data.viewer_email, event.data.completion_time);
 *     res.writeHead(204).end();
 *   } catch (error) {
 *     res.writeHead(error instanceof WebhookVerificationError ? 401 : 500).end();
 *   }
 * }).listen(8080);
 * ```
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<WebhookEvent> {
  const id = await verifyStandardSignature(options);
  if (header(options.headers, 'x-service-signature') !== undefined) {
    if (!(await verifyServiceSignature(options.body, options.headers, options.secret))) {
      throw new WebhookVerificationError('invalid_signature', 'X-Service-Signature does not match the secret');
    }
  }
  let event: WebhookEvent;
  try {
    event = parseWebhookEvent(options.body);
  } catch (error) {
    // A signed body of a newer kind must still carry the signed id.
    if (error instanceof WebhookVerificationError && error.reason === 'unknown_event') {
      const parsed = JSON.parse(typeof options.body === 'string' ? options.body : new TextDecoder().decode(bytesOf(options.body)));
      if (parsed.id !== id) throw new WebhookVerificationError('invalid_payload', 'The body’s id is not the webhook-id');
    }
    throw error;
  }
  if (event.id !== id) throw new WebhookVerificationError('invalid_payload', 'The body’s id is not the webhook-id');
  return event;
}

/**
 * The secret in the form Standard Webhooks libraries take (`whsec_` + base64 of its UTF-8 bytes), the
 * same as `standard_webhooks_secret` in the creation answer.
 *
 * @example
 * ```ts
 * import { Webhook } from 'standardwebhooks';
 * import { standardWebhooksSecret } from '@demoshare/sdk';
 * const wh = new Webhook(standardWebhooksSecret(secret));
 * ```
 */
export function standardWebhooksSecret(secret: string): string {
  const bytes = encoder.encode(secret);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `whsec_${btoa(binary)}`;
}
