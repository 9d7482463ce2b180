import { createHash } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import fc from 'fast-check';
import { type JsonSchema, schemaArbitrary, wrongTypeArbitrary } from './schema-arbitrary';

/**
 * Requests for the fuzzer (test/fuzz.test.ts), derived from the OpenAPI document alone: for each
 * operation, an arbitrary of abstract plans (which credential, which kind of value in each path
 * parameter, query values, a body and how it is mangled, a content type), resolved against the fixture
 * world only when sent, so that a plan printed in a failure reads as what was tried.
 */

interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

interface MediaType {
  schema: JsonSchema;
  examples?: Record<string, { value: unknown }>;
}

interface RawOperation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, unknown>;
  security?: Array<Record<string, string[]>>;
}

export interface Operation {
  method: string;
  path: string;
  /** `session`: the web app's cookie only; `scope`: a bearer credential with `scope`; `public`: none. */
  access: 'public' | 'session' | 'scope';
  scope?: string;
  parameters: Parameter[];
  /** The body's schema, its `$ref`s inlined. */
  body?: JsonSchema;
  /** How the body travels: JSON, or an HTML form (the OAuth token and revocation endpoints). */
  bodyType?: 'json' | 'form';
  /** The body the document shows as an example: a request the handler takes, which the shapes start from. */
  bodyExample?: unknown;
  /** Takes client credentials as HTTP Basic: a form with client_secret, which RFC 6749 §2.3.1 pairs with Basic. */
  basicAuth: boolean;
  statuses: Set<string>;
}

const FORM = 'application/x-www-form-urlencoded';

/** `schema` with every local `$ref` replaced by what it names (the document's schemas have no cycles). */
function inline(schema: unknown, doc: unknown, depth = 0): unknown {
  if (depth > 50 || schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map((item) => inline(item, doc, depth + 1));
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    let node = doc as Record<string, unknown>;
    for (const part of ref.slice(2).split('/')) node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')] as Record<string, unknown>;
    return inline(node, doc, depth + 1);
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inline(value, doc, depth + 1)]));
}

export function operationsOf(doc: { paths: Record<string, Record<string, RawOperation>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const security = op.security ?? [];
      const scope = security.find((s) => s.bearerAuth)?.bearerAuth?.[0];
      const content = op.requestBody?.content ?? {};
      const bodyType = content['application/json'] ? 'json' : content[FORM] ? 'form' : undefined;
      const media = bodyType && content[bodyType === 'json' ? 'application/json' : FORM];
      const body = media ? (inline(media.schema, doc) as JsonSchema) : undefined;
      operations.push({
        method: method.toUpperCase(),
        path,
        access: security.length === 0 ? 'public' : scope ? 'scope' : 'session',
        scope,
        parameters: op.parameters ?? [],
        body,
        bodyType,
        bodyExample: media ? (Object.values(media.examples ?? {})[0]?.value ?? (body as { examples?: unknown[] }).examples?.[0]) : undefined,
        basicAuth: bodyType === 'form' && !!body?.properties?.client_secret,
        statuses: new Set(Object.keys(op.responses)),
      });
    }
  }
  return operations;
}

export type Credential = 'none' | 'garbage' | 'revoked' | 'narrow' | 'admin-key' | 'session' | 'session-without-csrf';
export type PathValue = { kind: 'valid' | 'other-workspace' | 'unknown' } | { kind: 'literal'; value: string; raw?: boolean };
export type Body =
  | { kind: 'none' }
  | { kind: 'json'; mutation: string; value: unknown }
  | { kind: 'text'; mutation: string; text: string };

export interface Plan {
  credential: Credential;
  path: Record<string, PathValue>;
  query: Array<[string, string]>;
  /** Header parameters; `content-digest: "valid"` is computed from the body when sent. */
  headers: Record<string, string>;
  /** An Authorization header sent instead of the credential's (malformed HTTP Basic). */
  authorization?: string;
  body: Body;
  /** `default`: what a client sends with this body (application/json for JSON); undefined: none. */
  contentType: string | undefined;
}

const ODD_PATH_VALUES: PathValue[] = [
  { kind: 'literal', value: 'not-an-id' },
  { kind: 'literal', value: '0' },
  { kind: 'literal', value: '-1' },
  { kind: 'literal', value: 'a'.repeat(3000) },
  { kind: 'literal', value: 'démo_ünïcødé_😀_ﷺ' },
  { kind: 'literal', value: 'demo_\u0000' },
  { kind: 'literal', value: '../../etc/passwd' },
  { kind: 'literal', value: '..', raw: true },
  { kind: 'literal', value: '%zz', raw: true },
  { kind: 'literal', value: ' ' },
  { kind: 'literal', value: "1' or '1'='1" },
  { kind: 'literal', value: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w' },
];

/** Strings a JSON body can carry that text handling trips over: NUL, lone surrogates, BOM, bidi overrides, and long runs of astral characters at both alignments (a cut at an even or odd unit). */
const ODD_STRINGS = ['a\u0000b', '\ud800', 'x\udc25', '\ufeff\u202e\u200b', '🙂'.repeat(300), `a${'🙂'.repeat(300)}`, ' '];

const ODD_QUERY_VALUES = ['', 'abc', '-1', '0', '1.5', '1e309', '2147483648', '99999999999999999999', 'x'.repeat(5000), 'nul\u0000', '🙂', '\ud800', 'true', '[]'];

/**
 * Dates for date parameters that PostgreSQL or JavaScript cannot take (year 0, five-digit years, an offset
 * that carries a day in range past either end) or that do not exist: each once a 500.
 */
export const ODD_DATES = [
  '0000-01-01',
  '0000-01-01T00:00:00Z',
  '10000-01-01',
  '+010000-01-01T00:00:00Z',
  '9999-12-31T23:00:00-05:00',
  '1969-12-31',
  '2026-02-30',
  '2026-13-01',
  '2026-11-21T25:00:00Z',
];

/** Authorization headers that are not HTTP Basic credentials, for endpoints that take Basic: each once a 500 or worse. */
export const MALFORMED_BASIC = [
  `Basic ${Buffer.from('%zz:x').toString('base64')}`,
  `Basic ${Buffer.from('app_x%00:x').toString('base64')}`,
  `Basic ${Buffer.from('app_x:%ed%a0%80').toString('base64')}`,
  `Basic ${Buffer.from('app_\u0000x:y').toString('base64')}`,
  `Basic ${Buffer.from([0x61, 0xff, 0x3a, 0x62]).toString('base64')}`,
  `Basic ${Buffer.from('no-colon').toString('base64')}`,
  'Basic !!!not-base64!!!',
  'Basic',
];

const isDateSchema = (schema: JsonSchema) => /"format":"date(?:-time)?"/.test(JSON.stringify(schema));

const RAW_BODIES = ['', 'not json', 'null', '[]', '"text"', '42', '{"unterminated": ', '{"__proto__": {"admin": true}}', '\u0000\u0001', '{"a":1,"a":2}'];

const WRONG_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'image/png',
  'application/xml',
  'application/json; charset=iso-8859-1',
];

function pathValueArbitrary(): fc.Arbitrary<PathValue> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant<PathValue>({ kind: 'valid' }) },
    { weight: 1, arbitrary: fc.constant<PathValue>({ kind: 'other-workspace' }) },
    { weight: 1, arbitrary: fc.constant<PathValue>({ kind: 'unknown' }) },
    { weight: 2, arbitrary: fc.constantFrom(...ODD_PATH_VALUES) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map<PathValue>((value) => ({ kind: 'literal', value })) },
  );
}

function credentialArbitrary(op: Operation): fc.Arbitrary<Credential> {
  const usual: Credential = op.access === 'session' ? 'session' : op.access === 'scope' ? 'admin-key' : 'none';
  const others: Credential[] = ['none', 'garbage', 'revoked', 'narrow', 'admin-key', 'session', 'session-without-csrf'];
  return fc.oneof({ weight: 12, arbitrary: fc.constant(usual) }, { weight: 6, arbitrary: fc.constantFrom(...others.filter((c) => c !== usual)) });
}

function queryArbitrary(op: Operation): fc.Arbitrary<Array<[string, string]>> {
  const params = op.parameters.filter((p) => p.in === 'query');
  const one = (p: Parameter) =>
    fc.oneof(
      { weight: 4, arbitrary: schemaArbitrary(p.schema).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))) },
      { weight: 1, arbitrary: fc.constantFrom(...ODD_QUERY_VALUES) },
      ...(isDateSchema(p.schema) ? [{ weight: 1, arbitrary: fc.constantFrom(...ODD_DATES) }] : []),
    );
  const entries = params.map((p) =>
    p.required ? one(p).map((v) => [[p.name, v]] as Array<[string, string]>) : fc.option(one(p), { freq: 2 }).map((v) => (v === null ? [] : [[p.name, v] as [string, string]])),
  );
  // One request in six carries a parameter the operation does not name (or `page` where there is none).
  const unknown = fc.oneof(
    { weight: 5, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom<Array<[string, string]>>([['unknown_param', '1']], [['page', '1']], [['__proto__', 'x']]) },
  );
  return fc.tuple(fc.tuple(...entries), unknown).map(([parts, extra]) => [...parts.flat(), ...(extra ?? [])]);
}

function jsonBodyArbitrary(schema: JsonSchema): fc.Arbitrary<Body> {
  const valid = schemaArbitrary(schema);
  const properties = Object.keys(schema.properties ?? {});
  const required = schema.required ?? [];
  const asObject = (v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  const mutations: Array<fc.WeightedArbitrary<Body>> = [
    { weight: 10, arbitrary: valid.map((value) => ({ kind: 'json', mutation: 'valid', value })) },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.nat(), fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 1 })).map(([v, i, name, extra]) => ({
        kind: 'json',
        mutation: 'extra field',
        value: { ...asObject(v), [properties.includes(name) ? `${name}_x` : name || `x${i}`]: extra },
      })),
    },
    { weight: 1, arbitrary: fc.constant<Body>({ kind: 'json', mutation: 'deep nesting', value: JSON.parse(`${'['.repeat(2000)}${']'.repeat(2000)}`) }) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES).map<Body>((text) => ({ kind: 'text', mutation: 'not an object', text })) },
  ];
  if (required.length > 0) {
    mutations.push({
      weight: 2,
      arbitrary: fc.tuple(valid, fc.nat()).map(([v, i]) => {
        const copy = { ...asObject(v) };
        delete copy[required[i % required.length]!];
        return { kind: 'json', mutation: `without ${required[i % required.length]}`, value: copy };
      }),
    });
  }
  if (properties.length > 0) {
    const property = fc.constantFrom(...properties);
    mutations.push(
      {
        weight: 2,
        arbitrary: property.chain((name) =>
          fc.tuple(valid, wrongTypeArbitrary(schema.properties?.[name])).map(([v, wrong]) => ({ kind: 'json' as const, mutation: `${name} of a wrong type`, value: { ...asObject(v), [name]: wrong } })),
        ),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(valid, property, fc.constantFrom(5_000, 70_000)).map(([v, name, size]) => ({
          kind: 'json',
          mutation: `${name} of ${size} characters`,
          value: { ...asObject(v), [name]: 'x'.repeat(size) },
        })),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(valid, property, fc.constantFrom(...ODD_STRINGS)).map(([v, name, odd]) => ({
          kind: 'json',
          mutation: `${name} of odd characters`,
          value: { ...asObject(v), [name]: odd },
        })),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(valid, property).map(([v, name]) => ({
          kind: 'json',
          mutation: `${name} deeply nested`,
          value: { ...asObject(v), [name]: JSON.parse(`${'{"a":'.repeat(500)}1${'}'.repeat(500)}`) },
        })),
      },
    );
  }
  return fc.oneof(...mutations);
}

function bodyArbitrary(op: Operation): fc.Arbitrary<Body> {
  if (op.body) return jsonBodyArbitrary(op.body);
  if (op.method === 'GET' || op.method === 'DELETE') return fc.constant({ kind: 'none' });
  // An operation that documents no JSON body (an action, or an upload of raw bytes): mostly none, sometimes junk.
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant<Body>({ kind: 'none' }) },
    { weight: 1, arbitrary: fc.constant<Body>({ kind: 'json', mutation: 'unexpected object', value: {} }) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES, 'x'.repeat(70_000)).map<Body>((text) => ({ kind: 'text', mutation: 'unexpected body', text })) },
  );
}

function headersArbitrary(op: Operation): fc.Arbitrary<Record<string, string>> {
  const params = op.parameters.filter((p) => p.in === 'header');
  const entries = params.map((p) =>
    fc
      .oneof(
        { weight: 4, arbitrary: fc.constant('valid') },
        { weight: 1, arbitrary: schemaArbitrary(p.schema).map(String) },
        { weight: 1, arbitrary: fc.constantFrom('', 'sha-256=:AAAA:', 'md5=:x:', 'garbage') },
      )
      .map((value) => [p.name, value] as const),
  );
  return fc.tuple(...entries).map((pairs) => Object.fromEntries(pairs));
}

export function planArbitrary(op: Operation): fc.Arbitrary<Plan> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const path = fc.tuple(...pathParams.map(() => pathValueArbitrary())).map((values) => Object.fromEntries(pathParams.map((p, i) => [p.name, values[i]!])));
  return fc.record({
    credential: credentialArbitrary(op),
    path,
    query: queryArbitrary(op),
    headers: headersArbitrary(op),
    body: bodyArbitrary(op),
    authorization: op.basicAuth ? fc.option(fc.constantFrom(...MALFORMED_BASIC), { freq: 3, nil: undefined }) : fc.constant(undefined),
    contentType: fc.oneof(
      { weight: 10, arbitrary: fc.constant<string | undefined>('default') },
      { weight: 2, arbitrary: fc.constantFrom<string | undefined>(...WRONG_TYPES) },
      { weight: 1, arbitrary: fc.constant<string | undefined>(undefined) },
    ),
  });
}

export interface Resolver {
  /** The value of `param` of `path` in the home workspace, or in the other one. */
  value(path: string, param: string, where: 'home' | 'other'): string;
  credential(credential: Credential, op: Operation): Record<string, string>;
}

/** A fresh value shaped like `like`: an id with the same prefix, a token of the same length, a larger number. */
function unknownLike(like: string): string {
  const id = /^([a-z]+_)[0-9a-z]{26}$/.exec(like);
  // Derived from `like`, not random: a plan replays to the same request.
  const digest = createHash('sha256').update(`unknown:${like}`).digest();
  if (id) return `${id[1]}01${digest.toString('hex').slice(0, 24)}`;
  if (/^\d+$/.test(like)) return '999999';
  return Buffer.concat([digest, digest]).toString('base64url').slice(0, like.length);
}

/** Percent-encoding that also takes a lone surrogate (encodeURIComponent throws): as the UTF-8 a client sends. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
}

/** The request a plan stands for, as `app.inject` options. */
export function resolvePlan(op: Operation, plan: Plan, resolver: Resolver): InjectOptions {
  const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const choice = plan.path[name] ?? { kind: 'valid' };
    if (choice.kind === 'literal') return choice.raw ? choice.value : encode(choice.value);
    if (choice.kind === 'unknown') return encode(unknownLike(resolver.value(op.path, name, 'home')));
    return encode(resolver.value(op.path, name, choice.kind === 'valid' ? 'home' : 'other'));
  });
  const query = plan.query.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
  let payload: string | undefined;
  if (plan.body.kind === 'json') payload = op.bodyType === 'form' ? formEncoded(plan.body.value) : JSON.stringify(plan.body.value);
  else if (plan.body.kind === 'text') payload = plan.body.text;
  const headers: Record<string, string> = { ...resolver.credential(plan.credential, op) };
  if (plan.authorization !== undefined) headers.authorization = plan.authorization;
  for (const [name, value] of Object.entries(plan.headers)) {
    headers[name] = value === 'valid' && name === 'content-digest' ? `sha-256=:${createHash('sha256').update(payload ?? '').digest('base64')}:` : value;
  }
  const type = plan.contentType === 'default' ? (payload !== undefined ? (op.bodyType === 'form' ? FORM : 'application/json') : undefined) : plan.contentType;
  if (type) headers['content-type'] = type;
  return { method: op.method as InjectOptions['method'], url: query ? `${url}?${query}` : url, headers, ...(payload !== undefined ? { payload } : {}) };
}

/** A form body of an object's members (values that are not strings as JSON); anything else as JSON, which a form endpoint must refuse. */
function formEncoded(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return JSON.stringify(value);
  const entries = Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as [string, string]);
  return new URLSearchParams(entries).toString();
}

/** The paths of the strings in `value` (object members and array items, at any depth). */
function stringPaths(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value === 'string') return [path];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => stringPaths(item, [...path, Array.isArray(value) ? Number(key) : key]));
}

function withString(value: unknown, path: Array<string | number>, replace: (s: string) => string): unknown {
  if (path.length === 0) return replace(value as string);
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[path[0]!] = withString(copy[path[0]!], path.slice(1), replace);
  return copy;
}

/**
 * Requests of shapes that once found a 500, each sent once per operation besides the random runs, so that
 * a fixed seed cannot miss them: every odd date in each date parameter, every malformed HTTP Basic header
 * where Basic is taken, and a NUL appended to each string of the body (its documented example, or a sample).
 * Each starts from a request the handler takes: the usual credential, the world's records, valid headers.
 */
export function shapePlans(op: Operation, seed: number): Array<{ shape: string; plan: Plan }> {
  const usual: Credential = op.access === 'session' ? 'session' : op.access === 'scope' ? 'admin-key' : 'none';
  const headers = Object.fromEntries(op.parameters.filter((p) => p.in === 'header').map((p) => [p.name, 'valid']));
  const value = op.body ? (op.bodyExample ?? fc.sample(schemaArbitrary(op.body), { seed, numRuns: 1 })[0]) : undefined;
  const base: Plan = {
    credential: usual,
    path: {},
    query: [],
    headers,
    body: op.body ? { kind: 'json', mutation: 'example', value } : { kind: 'none' },
    contentType: 'default',
  };
  const shapes: Array<{ shape: string; plan: Plan }> = [];
  for (const p of op.parameters.filter((q) => q.in === 'query' && isDateSchema(q.schema))) {
    for (const date of ODD_DATES) shapes.push({ shape: `${p.name}=${date}`, plan: { ...base, query: [[p.name, date]] } });
  }
  if (op.basicAuth) {
    // The client's credentials in the header only, as a client using Basic sends them.
    const { client_id: _id, client_secret: _secret, ...rest } = (value ?? {}) as Record<string, unknown>;
    const body: Body = { kind: 'json', mutation: 'example without client credentials', value: rest };
    for (const authorization of MALFORMED_BASIC) shapes.push({ shape: `Authorization: ${authorization}`, plan: { ...base, body, authorization } });
  }
  if (op.body) {
    for (const path of stringPaths(value)) {
      const field = path.join('.');
      shapes.push({
        shape: `a NUL in ${field}`,
        plan: { ...base, body: { kind: 'json', mutation: `a NUL in ${field}`, value: withString(value, path, (s) => `${s}\u0000`) } },
      });
    }
  }
  return shapes;
}
