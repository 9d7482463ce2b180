// The HubSpot CRM v3 requests Demoshare makes, and what their answers mean for the sync.
import { parseRetryAfter } from '../core/delivery/retry-schedule';

/** HubSpot's batch endpoints take at most 100 inputs. */
export const HUBSPOT_BATCH_LIMIT = 100;
/** Its search takes at most 5 filter groups (OR-ed): 5 note references per search. */
export const HUBSPOT_SEARCH_GROUPS = 5;
/** When a 429 says nothing of when to come back: HubSpot's shortest window is ten seconds. */
const DEFAULT_RATE_LIMIT_WAIT_MS = 10_000;

/** What one request came to, in the words the sync acts on. */
export type HubSpotAnswer =
  | { kind: 'ok'; status: number; body: unknown }
  /** 401, or 403 (the token lacks a scope): pause until an admin saves a token HubSpot accepts. */
  | { kind: 'refused'; status: number; message: string }
  /** 429: wait as long as HubSpot says, without counting an attempt. */
  | { kind: 'rate_limited'; status: 429; message: string; waitMs: number }
  /**
   * 5xx, 408, network error, timeout: try again on the schedule, or after the Retry-After a 503 or 408 gave
   * (`retryAfterMs`); whatever was sent may have been done.
   */
  | { kind: 'unavailable'; status: number | null; message: string; retryAfterMs?: number }
  /** Any other 4xx: HubSpot will refuse this input again. */
  | { kind: 'invalid'; status: number; message: string };

export interface HubSpotClientOptions {
  baseUrl: string;
  token: string;
  timeoutMs: number;
  now: () => Date;
}

export interface ContactInput {
  email: string;
  properties: Record<string, string>;
}

export interface NoteInput {
  body: string;
  timestamp: Date;
  contactId: string;
}

/**
 * A private app's view of one HubSpot account: `Authorization: Bearer <token>`, JSON both ways, a timeout
 * per request, and the answer sorted into what the sync does next (never an exception).
 *
 * @example
 * const hubspot = hubSpotClient({ baseUrl: 'https://api.hubapi.com', token, timeoutMs: 10_000, now: () => new Date() });
 * const answer = await hubspot.upsertContacts([{ email: 'ada@example.com', properties: { firstname: 'Ada' } }]);
 */
export function hubSpotClient(options: HubSpotClientOptions) {
  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<HubSpotAnswer> {
    let res: Response;
    try {
      res = await fetch(`${options.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      const err = error as Error & { cause?: { code?: string; message?: string } };
      const reason =
        err.name === 'TimeoutError' ? `no answer within ${options.timeoutMs / 1000} s` : (err.cause?.code ?? err.cause?.message ?? err.message);
      return { kind: 'unavailable', status: null, message: `HubSpot could not be reached (${reason})` };
    }
    const text = await res.text().catch(() => '');
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (a proxy's error page): the status says enough.
    }
    const message = hubSpotMessage(json) ?? `HTTP ${res.status}`;
    if (res.status >= 200 && res.status < 300) return { kind: 'ok', status: res.status, body: json };
    if (res.status === 401 || res.status === 403) return { kind: 'refused', status: res.status, message };
    if (res.status === 429) {
      const waitMs = parseRetryAfter(res.headers.get('retry-after') ?? undefined, options.now()) ?? DEFAULT_RATE_LIMIT_WAIT_MS;
      return { kind: 'rate_limited', status: 429, message, waitMs };
    }
    // 408: the request timed out at HubSpot's edge, which says nothing of the input: the same as a 5xx.
    if (res.status >= 500 || res.status === 408 || res.status < 200 || (res.status >= 300 && res.status < 400)) {
      const retryAfterMs = parseRetryAfter(res.headers.get('retry-after') ?? undefined, options.now()) ?? undefined;
      return { kind: 'unavailable', status: res.status, message, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
    }
    return { kind: 'invalid', status: res.status, message };
  }

  return {
    /** The cheapest request that proves the token and its contacts scope: one contact, or none. */
    checkToken: () => call('GET', '/crm/v3/objects/contacts?limit=1'),

    /** Creates or updates contacts by e-mail (up to 100); the answer's results carry `id`, `new` and `properties.email`. */
    upsertContacts: (contacts: ContactInput[]) =>
      call('POST', '/crm/v3/objects/contacts/batch/upsert', {
        inputs: contacts.map((c) => ({ idProperty: 'email', id: c.email, properties: { email: c.email, ...c.properties } })),
      }),

    /** Creates notes (up to 100), each associated with its contact (type 202, note → contact). */
    createNotes: (notes: NoteInput[]) =>
      call('POST', '/crm/v3/objects/notes/batch/create', {
        inputs: notes.map((n) => ({
          properties: { hs_timestamp: n.timestamp.toISOString(), hs_note_body: n.body },
          associations: [{ to: { id: n.contactId }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 202 }] }],
        })),
      }),

    /** Notes whose body holds one of these reference tokens (up to 5): the ones an unanswered attempt may have made. */
    searchNotes: (tokens: string[]) =>
      call('POST', '/crm/v3/objects/notes/search', {
        filterGroups: tokens.map((token) => ({ filters: [{ propertyName: 'hs_note_body', operator: 'CONTAINS_TOKEN', value: token }] })),
        properties: ['hs_note_body'],
        limit: 100,
      }),
  };
}

export type HubSpotClient = ReturnType<typeof hubSpotClient>;

/** HubSpot's error body is `{status: 'error', message, correlationId, category}`: its message, trimmed. */
function hubSpotMessage(json: unknown): string | null {
  if (!json || typeof json !== 'object') return null;
  const message = (json as { message?: unknown }).message;
  return typeof message === 'string' && message.length > 0 ? message.slice(0, 500) : null;
}

/** An object HubSpot answered with: `id` and the properties asked for. */
export interface HubSpotObject {
  id: string;
  properties: Record<string, string | null>;
  new?: boolean;
}

/** The `results` of a batch or search answer (200, 201 or 207), whatever else it holds. */
export function resultsOf(body: unknown): HubSpotObject[] {
  const results = (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) return [];
  return results.filter(
    (r): r is HubSpotObject => !!r && typeof r === 'object' && typeof (r as HubSpotObject).id === 'string' && typeof (r as HubSpotObject).properties === 'object',
  );
}

/** The messages of a 207's `errors`, joined: what the log says of inputs HubSpot did not take. */
export function errorsOf(body: unknown): string | null {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return null;
  return errors
    .map((e) => (e && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string' ? (e as { message: string }).message : 'error'))
    .join('; ')
    .slice(0, 500);
}
