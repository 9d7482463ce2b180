import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { toOpenApiPath } from './routes';

/**
 * The contract check of the test apps: every response a test receives through `app.inject` is validated
 * against the operation of the served OpenAPI document (GET /v1/openapi.json) that its route documents,
 * for its status code. A status the operation does not list, or a body its schema refuses, throws, so
 * the test that made the request fails with the path, the status and ajv's errors.
 */

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
}

/** A mark that survives `{ ...options }`, as the session's and the tests' own inject wrappers copy options. */
const UNCHECKED = Symbol('unchecked');

/**
 * Leaves the response to `options` unchecked: only for a test that deliberately sends what no operation
 * takes (a body to a GET, say), to which the document promises nothing.
 */
export function unchecked<T extends object>(options: T): T {
  return { ...options, [UNCHECKED]: true };
}

/** One compiled document per text: apps of one test file serve the same document. */
const compiled = new Map<string, { doc: Document; ajv: Ajv2020; validators: Map<string, ValidateFunction> }>();

function compile(text: string) {
  let entry = compiled.get(text);
  if (!entry) {
    const doc = JSON.parse(text) as Document;
    // The document as one schema resource, so that the responses' $refs to #/components/schemas resolve.
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats.default(ajv);
    ajv.addSchema({ ...doc, $id: 'openapi.json' } as object);
    entry = { doc, ajv, validators: new Map() };
    compiled.set(text, entry);
  }
  return entry;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Wraps `app.inject` (before `ready`, it adds the hook that records each request's route). */
export function checkResponses(app: FastifyInstance): void {
  const routes = new Map<string, { method: string; url: string }>();
  app.addHook('onResponse', (request, _reply, done) => {
    if (request.routeOptions.url) routes.set(request.id, { method: request.method, url: request.routeOptions.url });
    done();
  });
  let document: ReturnType<typeof compile> | undefined;
  const original = app.inject.bind(app) as (options: InjectOptions | string) => Promise<LightMyRequestResponse>;

  async function check(response: LightMyRequestResponse) {
    const id = response.headers['x-request-id'];
    const route = typeof id === 'string' ? routes.get(id) : undefined;
    if (typeof id === 'string') routes.delete(id);
    if (!route || route.method === 'HEAD') return;
    // What GET /v1/openapi.json serves, read without a request: one would count against the rate limits.
    document ??= compile(JSON.stringify(app.swagger()));
    const { doc, ajv, validators } = document;
    const path = toOpenApiPath(route.url);
    const method = route.method.toLowerCase();
    const operation = doc.paths[path]?.[method];
    if (!operation) return; // not in the document (pages, the document itself)
    const where = `${route.method} ${path} answered ${response.statusCode}`;
    const status = String(response.statusCode);
    const documented = operation.responses?.[status] ?? operation.responses?.[`${status[0]}XX`];
    if (!documented) {
      throw new Error(`Contract: ${where}, which the OpenAPI document does not list (${Object.keys(operation.responses ?? {}).join(', ')}): ${response.body.slice(0, 500)}`);
    }
    const type = String(response.headers['content-type'] ?? '').split(';')[0]!.trim();
    if (!documented.content) {
      if (response.body.length > 0) throw new Error(`Contract: ${where} with a body, where the document says none: ${response.body.slice(0, 200)}`);
      return;
    }
    const media = documented.content[type];
    if (!media) {
      throw new Error(`Contract: ${where} as ${type || 'no content type'}, where the document says ${Object.keys(documented.content).join(', ')}`);
    }
    if (type !== 'application/json' || !media.schema) return;
    const ref = `openapi.json#/${pointer('paths', path, method, 'responses', status in (operation.responses ?? {}) ? status : `${status[0]}XX`, 'content', type, 'schema')}`;
    let validate = validators.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      validators.set(ref, validate);
    }
    if (!validate(JSON.parse(response.body))) {
      const errors = (validate.errors ?? []).map((e) => `  ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`).join('\n');
      throw new Error(`Contract: ${where} with a body the OpenAPI document refuses:\n${errors}\n${response.body.slice(0, 1000)}`);
    }
  }

  const raw = app.inject as unknown as (...args: unknown[]) => unknown;
  const wrapped = (options?: InjectOptions | string, callback?: unknown) => {
    // The chained form (no options) and the callback form stay as they were.
    if (options === undefined || callback !== undefined) return raw.call(app, options, callback);
    const skip = typeof options === 'object' && UNCHECKED in options;
    return original(options).then(async (response) => {
      if (!skip) await check(response);
      return response;
    });
  };
  Object.defineProperty(app, 'inject', { value: wrapped, configurable: true, writable: true });
}
