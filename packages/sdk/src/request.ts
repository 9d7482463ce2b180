import type { Client } from 'openapi-fetch';
import { errorFromResponse } from './errors.js';
import type { paths } from './schema.js';

/** What every resource wrapper needs: the typed client, and the client's fetch for raw bodies. */
export interface ResourceContext {
  api: Client<paths>;
  /** The client's fetch (credential, refresh, retries), for requests the typed client cannot describe. */
  fetch: typeof fetch;
  /** The API's origin, without /v1. */
  origin: string;
}

/**
 * The body of a successful answer of the typed client (`client.api`), or the typed error of a failed one.
 *
 * @example
 * ```ts
 * import { unwrap } from '@demoshare/sdk';
 * const { data: demo } = await unwrap(client.api.GET('/v1/demos/{id}', { params: { path: { id: 'demo_...' } } }));
 * ```
 */
export async function unwrap<D>(pending: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
  const { data, error, response } = await pending;
  if (!response.ok) throw errorFromResponse(response, error);
  return data as D;
}

/** A request with a body the typed client cannot describe (raw image bytes, JSON of an untyped route). */
export async function rawRequest<T>(
  ctx: ResourceContext,
  method: string,
  path: string,
  body: BodyInit | undefined,
  headers: Record<string, string>,
): Promise<T> {
  const response = await ctx.fetch(new Request(`${ctx.origin}${path}`, { method, body, headers: { accept: 'application/json', ...headers } }));
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: reported by status below, or returned as text.
  }
  if (!response.ok) throw errorFromResponse(response, parsed);
  return parsed as T;
}

/** Waits `ms`. */
export const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
