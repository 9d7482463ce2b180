// A local HubSpot: the CRM v3 requests Demoshare makes, validated and answered as HubSpot documents them.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HubSpotRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
  /** What the server answered (after a scripted answer or its own handling). */
  status?: number;
  /** When the server received it (its clock, ms). */
  at: number;
}

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Handle the request as usual, then cut the connection before answering: the client never learns it was done. */
  dropAnswer?: boolean;
}

export interface Contact {
  id: string;
  properties: Record<string, string>;
}

export interface Note {
  id: string;
  properties: Record<string, string>;
  contactIds: string[];
}

/** A bare error body as HubSpot writes one: `{status: 'error', message, correlationId, category}`. */
export const hubSpotError = (message: string, category: string) => ({ status: 'error', message, correlationId: randomUUID(), category });

/** HubSpot's 429 body (its documented shape for the per-second limit), with the Retry-After the test chooses. */
export const rateLimited = (retryAfterSeconds: number): ScriptedAnswer => ({
  status: 429,
  headers: { 'retry-after': String(retryAfterSeconds) },
  body: {
    status: 'error',
    message: 'You have reached your secondly limit.',
    errorType: 'RATE_LIMIT',
    correlationId: randomUUID(),
    policyName: 'SECONDLY',
    groupName: 'publicapi',
  },
});

export const unauthorized = (): ScriptedAnswer => ({
  status: 401,
  body: hubSpotError(
    'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview',
    'INVALID_AUTHENTICATION',
  ),
});

export const serverError = (): ScriptedAnswer => ({ status: 500, body: hubSpotError('internal error', 'INTERNAL_ERROR') });

/** A 503 (HubSpot or its edge briefly down) with the Retry-After the test chooses. */
export const unavailable = (retryAfterSeconds: number): ScriptedAnswer => ({
  status: 503,
  headers: { 'retry-after': String(retryAfterSeconds) },
  body: hubSpotError('Service unavailable', 'SERVICE_UNAVAILABLE'),
});

/** A 408 from HubSpot's edge: the request took too long, which says nothing against its input. */
export const requestTimeout = (): ScriptedAnswer => ({ status: 408, body: hubSpotError('Request timeout', 'TIMEOUT') });

class Invalid extends Error {}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
/** Some of HubSpot's default contact properties: any other name is its 400 PROPERTY_DOESNT_EXIST, as in an account without custom ones. */
const CONTACT_PROPERTIES = new Set(['email', 'firstname', 'lastname', 'company', 'jobtitle', 'phone', 'mobilephone', 'website', 'city', 'country']);

/**
 * A real HTTP server on 127.0.0.1 holding one HubSpot account's contacts and notes. It answers the requests
 * of src/crm/hubspot.client.ts as HubSpot does: Bearer token (401 INVALID_AUTHENTICATION otherwise), batch
 * upsert of contacts by e-mail (`new` says whether it created one; a property it does not have is a 400), batch create of notes associated with
 * contacts (association type 202, HUBSPOT_DEFINED), note search by CONTAINS_TOKEN, and HubSpot's 400
 * VALIDATION_ERROR for a body it would refuse. A test scripts answers (429, 500, 401, a dropped answer) with `script`,
 * and can switch on a per-second limit.
 */
export class HubSpotServer {
  readonly requests: HubSpotRequest[] = [];
  readonly contacts = new Map<string, Contact>();
  readonly notes: Note[] = [];
  tokens = new Set<string>(['pat-na1-good-token-1234']);
  /** Requests allowed per rolling second before HubSpot's 429 (with Retry-After: 1); 0 for no limit. */
  perSecond = 0;
  private scripted: Array<{ match: (r: HubSpotRequest) => boolean; answer: ScriptedAnswer }> = [];
  private recent: number[] = [];
  private nextId = 1000;
  private server: Server;
  private waiters: Array<() => void> = [];
  url = '';

  constructor() {
    this.server = createServer((req, res) => this.handle(req, res));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The next request matching `path` (any, by default) gets `answer` instead of HubSpot's. */
  script(answer: ScriptedAnswer, path?: string) {
    this.scripted.push({ match: (r) => !path || r.path.startsWith(path), answer });
  }

  reset() {
    this.requests.length = 0;
    this.contacts.clear();
    this.notes.length = 0;
    this.scripted = [];
    this.perSecond = 0;
  }

  contactByEmail(email: string) {
    return [...this.contacts.values()].find((c) => c.properties.email === email.toLowerCase());
  }

  notesOf(email: string) {
    const contact = this.contactByEmail(email);
    return contact ? this.notes.filter((n) => n.contactIds.includes(contact.id)) : [];
  }

  /** Resolves once `check` holds, checked after each request (and at once). */
  async waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`HubSpot server: timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const entry: HubSpotRequest = { method: req.method ?? 'GET', path: req.url ?? '/', authorization: req.headers.authorization, body: null, at: Date.now() };
      this.requests.push(entry);
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        entry.status = status;
        res.writeHead(status, { 'content-type': 'application/json;charset=utf-8', ...headers });
        res.end(JSON.stringify(body));
        for (const wake of this.waiters.splice(0)) wake();
      };
      try {
        entry.body = raw ? JSON.parse(raw) : null;
      } catch (error) {
        return send(400, hubSpotError(`Invalid input JSON on line 1: ${(error as Error).message}`, 'VALIDATION_ERROR'));
      }
      const index = this.scripted.findIndex((s) => s.match(entry));
      const scripted = index >= 0 ? this.scripted.splice(index, 1)[0]!.answer : undefined;
      if (scripted && !scripted.dropAnswer) return send(scripted.status, scripted.body ?? {}, scripted.headers);
      const now = Date.now();
      this.recent = this.recent.filter((t) => t > now - 1000);
      if (this.perSecond > 0 && this.recent.length >= this.perSecond) {
        const r = rateLimited(1);
        return send(429, r.body, r.headers);
      }
      this.recent.push(now);
      const token = /^Bearer (.+)$/.exec(entry.authorization ?? '')?.[1];
      if (!token || !this.tokens.has(token)) {
        const r = unauthorized();
        return send(401, r.body);
      }
      let answer: { status: number; body: unknown };
      try {
        answer = this.route(entry);
      } catch (error) {
        if (!(error instanceof Invalid)) throw error;
        answer = { status: 400, body: hubSpotError(error.message, 'VALIDATION_ERROR') };
      }
      if (scripted?.dropAnswer) {
        // Done, but the answer never arrives.
        entry.status = answer.status;
        req.socket.destroy();
        for (const wake of this.waiters.splice(0)) wake();
        return;
      }
      send(answer.status, answer.body);
    });
  }

  private route(r: HubSpotRequest): { status: number; body: unknown } {
    const url = new URL(r.path, 'http://hubspot');
    const at = new Date().toISOString();
    const key = `${r.method} ${url.pathname}`;
    if (key === 'GET /crm/v3/objects/contacts') {
      const limit = Number(url.searchParams.get('limit') ?? '10');
      const results = [...this.contacts.values()].slice(0, limit).map((c) => this.object(c.id, c.properties, at));
      return { status: 200, body: { results } };
    }
    if (key === 'POST /crm/v3/objects/contacts/batch/upsert') {
      const inputs = this.inputs(r.body);
      const ids = new Set<string>();
      for (const input of inputs) {
        if (input.idProperty !== 'email') throw new Invalid(`Property "${String(input.idProperty)}" is not a unique identifier property`);
        if (typeof input.id !== 'string' || !EMAIL.test(input.id)) throw new Invalid(`Property values were not valid: email "${String(input.id)}" is not a valid email address`);
        if (ids.has(input.id.toLowerCase())) throw new Invalid(`Duplicate IDs found in batch input: [${input.id}]. IDs must be unique`);
        ids.add(input.id.toLowerCase());
        for (const name of Object.keys(this.properties(input.properties))) {
          if (!CONTACT_PROPERTIES.has(name)) {
            throw new Invalid(`Property values were not valid: [{"isValid":false,"message":"Property \\"${name}\\" does not exist","error":"PROPERTY_DOESNT_EXIST","name":"${name}"}]`);
          }
        }
      }
      const results = inputs.map((input) => {
        const email = (input.id as string).toLowerCase();
        const existing = this.contactByEmail(email);
        const properties = { ...(input.properties as Record<string, string>), email };
        if (existing) {
          Object.assign(existing.properties, properties);
          return { ...this.object(existing.id, existing.properties, at), new: false };
        }
        const contact = { id: String(this.nextId++), properties };
        this.contacts.set(contact.id, contact);
        return { ...this.object(contact.id, contact.properties, at), new: true };
      });
      return { status: 200, body: { status: 'COMPLETE', results, startedAt: at, completedAt: at } };
    }
    if (key === 'POST /crm/v3/objects/notes/batch/create') {
      const inputs = this.inputs(r.body);
      const made = inputs.map((input) => {
        const properties = this.properties(input.properties);
        if (!properties.hs_timestamp || Number.isNaN(Date.parse(properties.hs_timestamp))) throw new Invalid('Property values were not valid: hs_timestamp is required');
        if (!Array.isArray(input.associations)) throw new Invalid('associations must be an array');
        const contactIds = input.associations.map((a: unknown) => {
          const to = isRecord(a) && isRecord(a.to) ? a.to.id : undefined;
          const types = isRecord(a) && Array.isArray(a.types) ? a.types : [];
          const ok = types.some((t: unknown) => isRecord(t) && t.associationCategory === 'HUBSPOT_DEFINED' && t.associationTypeId === 202);
          if (typeof to !== 'string' || !ok) throw new Invalid('Invalid association: note to contact is HUBSPOT_DEFINED type 202');
          if (!this.contacts.has(to)) throw new Invalid(`One or more associations are invalid: contact ${to} does not exist`);
          return to;
        });
        return { properties, contactIds };
      });
      // HubSpot does not promise the inputs' order: answer in reverse, so a client that assumes it is caught.
      const results = made
        .map((n) => {
          const note = { id: String(this.nextId++), properties: n.properties, contactIds: n.contactIds };
          this.notes.push(note);
          return this.object(note.id, note.properties, at);
        })
        .reverse();
      return { status: 201, body: { status: 'COMPLETE', results, startedAt: at, completedAt: at } };
    }
    if (key === 'POST /crm/v3/objects/notes/search') {
      const body = r.body;
      if (!isRecord(body) || !Array.isArray(body.filterGroups)) throw new Invalid('filterGroups is required');
      if (body.filterGroups.length > 5) throw new Invalid('Too many filter groups: the limit is 5');
      const tokens = body.filterGroups.map((g: unknown) => {
        const f = isRecord(g) && Array.isArray(g.filters) ? g.filters[0] : undefined;
        if (!isRecord(f) || f.propertyName !== 'hs_note_body' || f.operator !== 'CONTAINS_TOKEN' || typeof f.value !== 'string') {
          throw new Invalid('Unsupported filter');
        }
        return f.value;
      });
      const results = this.notes
        .filter((n) => tokens.some((t) => n.properties.hs_note_body?.split(/[^a-zA-Z0-9]+/).includes(t)))
        .map((n) => this.object(n.id, n.properties, at));
      return { status: 200, body: { total: results.length, results } };
    }
    return { status: 404, body: hubSpotError(`Unable to route ${r.method} request to ${url.pathname}`, 'OBJECT_NOT_FOUND') };
  }

  private inputs(body: unknown): Array<Record<string, unknown>> {
    if (!isRecord(body) || !Array.isArray(body.inputs)) throw new Invalid('Invalid input JSON: "inputs" is required');
    if (body.inputs.length === 0) throw new Invalid('inputs must not be empty');
    if (body.inputs.length > 100) throw new Invalid('Batch input is limited to 100 inputs');
    for (const i of body.inputs) if (!isRecord(i)) throw new Invalid('Invalid input JSON: inputs must be objects');
    for (const k of Object.keys(body)) if (k !== 'inputs') throw new Invalid(`Invalid input JSON: unrecognized field "${k}"`);
    return body.inputs as Array<Record<string, unknown>>;
  }

  private properties(value: unknown): Record<string, string> {
    if (!isRecord(value)) throw new Invalid('Invalid input JSON: properties must be an object');
    for (const [k, v] of Object.entries(value)) if (typeof v !== 'string') throw new Invalid(`Property values were not valid: ${k} must be a string`);
    return value as Record<string, string>;
  }

  private object(id: string, properties: Record<string, string>, at: string) {
    return { id, properties: { ...properties, hs_object_id: id }, createdAt: at, updatedAt: at, archived: false };
  }
}
