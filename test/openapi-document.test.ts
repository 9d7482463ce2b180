import fastifySwagger from '@fastify/swagger';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredAccess } from '../src/auth/auth.hook';
import { SCOPE_DESCRIPTIONS, SCOPES } from '../src/auth/permissions';
import { ERROR_STATUS } from '../src/core/errors';
import { securityOf } from '../src/openapi';
import { checkResponses, unchecked } from './helpers/contract';
import { toOpenApiPath } from './helpers/routes';
import { createTestApp, type TestApp } from './helpers/test-app';

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  requestBody?: unknown;
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The document as served: GET /v1/openapi.json of an in-process app. */
describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, unknown>; securitySchemes: Record<string, Record<string, unknown>> };
  };
  let operations: Array<{ method: string; path: string; op: Operation }>;

  beforeAll(async () => {
    t = await createTestApp({ config: { APP_URL: 'https://demos.example.org', API_URL: 'https://api.example.org' } });
    const res = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, op]) => ({ method, path, op })),
    );
  });
  afterAll(() => t?.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('resolves every $ref, and names no schema that nothing refers to', () => {
    const refs = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string') refs.add(value);
          else walk(value);
        }
      }
    };
    walk(doc);
    expect(refs.size).toBeGreaterThan(20);
    const unresolved = [...refs].filter((ref) => {
      if (!ref.startsWith('#/')) return true;
      let node: unknown = doc;
      for (const part of ref.slice(2).split('/')) {
        node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
      }
      return node === undefined;
    });
    expect(unresolved).toEqual([]);
    const named = Object.keys(doc.components.schemas).map((name) => `#/components/schemas/${name}`);
    expect(named.filter((ref) => !refs.has(ref))).toEqual([]);
  });

  it('gives every operation a unique camelCase operationId, a summary, tags and a 2xx response', () => {
    expect(operations.length).toBeGreaterThan(60);
    const ids = operations.map(({ op }) => op.operationId);
    for (const { method, path, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(op.summary, where).toBeTruthy();
      expect(op.tags?.length, where).toBeGreaterThan(0);
      expect(Object.keys(op.responses).some((status) => /^2\d\d$/.test(status)), where).toBe(true);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/v1/demos']!.get!.operationId).toBe('listDemos');
    expect(doc.paths['/v1/demos/{id}/shares']!.post!.operationId).toBe('createShareLink');
    expect(doc.paths['/v1/api-keys']!.post!.operationId).toBe('createApiKey');
  });

  it('declares the bearer, OAuth 2.0 (with the eight scopes) and session schemes', () => {
    const { bearerAuth, oauth2, session } = doc.components.securitySchemes;
    expect(bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'ds_session' });
    expect(oauth2).toMatchObject({
      type: 'oauth2',
      flows: {
        authorizationCode: {
          authorizationUrl: 'https://demos.example.org/oauth/authorize',
          tokenUrl: 'https://api.example.org/v1/oauth/token',
          refreshUrl: 'https://api.example.org/v1/oauth/token',
          scopes: SCOPE_DESCRIPTIONS,
        },
      },
    });
    expect(Object.keys((oauth2 as { flows: { authorizationCode: { scopes: object } } }).flows.authorizationCode.scopes)).toEqual([...SCOPES]);
  });

  it("gives every operation the security its route's permission needs", () => {
    const access = declaredAccess(t.app).filter((r) => r.method !== 'HEAD' && r.url !== '/v1/openapi.json');
    expect(access.length).toBeGreaterThan(60);
    for (const route of access) {
      const op = doc.paths[toOpenApiPath(route.url)]?.[route.method.toLowerCase()];
      expect(op?.security, `${route.method} ${route.url}`).toEqual(securityOf(route.permission));
    }
    expect(doc.paths['/v1/demos']!.post!.security).toEqual([{ bearerAuth: ['demos:write'] }, { oauth2: ['demos:write'] }]);
    expect(doc.paths['/v1/api-keys']!.get!.security).toEqual([{ session: [] }]);
    expect(doc.paths['/v1/viewer/{token}']!.get!.security).toEqual([]);
  });

  it('lists the error responses each operation can give, with their codes', () => {
    const codes = Object.keys(ERROR_STATUS);
    for (const { method, path, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      const statuses = Object.keys(op.responses);
      if (path.startsWith('/v1/')) expect(statuses, where).toEqual(expect.arrayContaining(['429', '500']));
      if (op.security?.length) expect(statuses, where).toEqual(expect.arrayContaining(['401', '403']));
      if (op.requestBody) expect(statuses, where).toEqual(expect.arrayContaining(['400', '413', '415']));
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const schema = response.content?.['application/json']?.schema as { $ref?: string } | undefined;
        if (schema?.$ref !== '#/components/schemas/Error') continue;
        const named = [...response.description.matchAll(/`([a-z_]+)`:/g)].map((m) => m[1]!);
        expect(named.length, `${where} ${status}`).toBeGreaterThan(0);
        for (const code of named) {
          expect(codes, `${where} ${status}`).toContain(code);
          expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], `${where} ${status} ${code}`).toBe(Number(status));
        }
      }
    }
    expect(doc.paths['/v1/demos/{id}']!.get!.responses['403']!.description).toContain('`insufficient_scope`');
  });

  it('has examples that match their schemas', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats.default(ajv);
    ajv.addSchema({ ...doc, $id: 'openapi.json' });
    const failures: string[] = [];
    let count = 0;
    const walk = (node: unknown, path: string[]): void => {
      if (Array.isArray(node)) {
        for (const [i, item] of node.entries()) walk(item, [...path, String(i)]);
      } else if (node && typeof node === 'object') {
        const schema = node as Record<string, unknown>;
        const pointer = path.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
        const check = (at: string, examples: unknown[]) => {
          const validate = ajv.compile({ $ref: `openapi.json#/${at}` });
          for (const example of examples) {
            count++;
            if (!validate(example)) failures.push(`${at}: ${ajv.errorsText(validate.errors)}`);
          }
        };
        // `examples` of a schema (not a property named so), and a media type's Example Objects.
        if (Array.isArray(schema.examples) && path.at(-1) !== 'properties') check(pointer, schema.examples);
        else if (schema.schema && schema.examples && typeof schema.examples === 'object') {
          check(`${pointer}/schema`, Object.values(schema.examples as Record<string, { value: unknown }>).map((e) => e.value));
        } else if (schema.schema && 'example' in schema) check(`${pointer}/schema`, [schema.example]);
        for (const [key, value] of Object.entries(schema)) if (key !== 'examples') walk(value, [...path, key]);
      }
    };
    walk(doc, []);
    expect(failures).toEqual([]);
    expect(count).toBeGreaterThan(3);
  });

  it('shows examples of the request body and the answer of every operation', () => {
    const resolve = (schema: unknown): Record<string, unknown> | undefined => {
      const ref = (schema as { $ref?: string } | undefined)?.$ref;
      return ref ? (doc.components.schemas[ref.split('/').at(-1)!] as Record<string, unknown>) : (schema as Record<string, unknown>);
    };
    const hasExamples = (schema: unknown) => Array.isArray(resolve(schema)?.examples);
    const exemplified = operations.filter(({ op }) => {
      const body = (op.requestBody as { content?: Record<string, { schema: unknown; examples?: object }> } | undefined)?.content?.['application/json'];
      const answer = Object.entries(op.responses).find(([status]) => /^2/.test(status))?.[1].content?.['application/json'] as
        | { schema: unknown; examples?: object; example?: unknown }
        | undefined;
      const data = (answer?.schema as { properties?: { data?: { items?: unknown } } } | undefined)?.properties?.data;
      // An inline answer's examples are lifted to its media type too (by @fastify/swagger).
      const lifted = !!answer && ('examples' in answer || 'example' in answer);
      const answered = !answer || lifted || hasExamples(answer.schema) || hasExamples(data) || hasExamples(data?.items);
      // A body's examples are lifted to its media type: `examples`, or `example` when there is one.
      return (!body || 'examples' in body || 'example' in body || hasExamples(body.schema)) && answered;
    });
    // Every operation: its JSON request body and its JSON 2xx answer (binary, CSV and empty ones have none to show).
    const lacking = operations.filter((o) => !exemplified.includes(o)).map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(lacking).toEqual([]);
    expect(exemplified.length).toBe(operations.length);
  });
});

describe('the contract check of the test apps', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    // As the real app does: the contract check finds each response's route by its request id.
    app.addHook('onSend', (request, reply, payload, done) => {
      reply.header('x-request-id', request.id);
      done(null, payload);
    });
    await app.register(fastifySwagger, { openapi: { openapi: '3.1.0', info: { title: 't', version: '1' } } });
    const thing = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false };
    app.get('/v1/things/:id', { schema: { response: { 200: thing } } }, async (request, reply) => {
      const { id } = request.params as { id: string };
      if (id === 'teapot') return reply.code(418 as 200).send({ a: "x" });
      // A string goes out as it is, past the serializer: the check must catch what it says.
      return reply.type('application/json').send(id === 'good' ? '{"a":"x"}' : '{"b":1}');
    });
    checkResponses(app);
    await app.ready();
  });
  afterAll(() => app?.close());

  it('passes a response that matches, and fails one that does not or has an undocumented status', async () => {
    expect((await app.inject({ method: 'GET', url: '/v1/things/good' })).statusCode).toBe(200);
    await expect(app.inject({ method: 'GET', url: '/v1/things/bad' })).rejects.toThrow(
      /GET \/v1\/things\/\{id\} answered 200 with a body the OpenAPI document refuses[\s\S]*required/,
    );
    await expect(app.inject({ method: 'GET', url: '/v1/things/teapot' })).rejects.toThrow(/answered 418, which the OpenAPI document does not list/);
    expect((await app.inject(unchecked({ method: 'GET', url: '/v1/things/bad' }))).statusCode).toBe(200);
  });
});
