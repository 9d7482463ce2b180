import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../src/core/errors';
import { engine } from './helpers/database';
import { changedTables, type FingerprintIgnore, fingerprinter } from './helpers/db-fingerprint';
import { type Operation, operationsOf, type Plan, planArbitrary, resolvePlan, shapePlans } from './helpers/fuzz-requests';
import { buildWorld, type World, worldKey } from './helpers/fuzz-world';
import { HubSpotServer } from './helpers/hubspot-server';
import { schemaArbitrary } from './helpers/schema-arbitrary';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

/**
 * Every operation of the OpenAPI document the server serves, called with generated requests (credentials,
 * path parameters, query, body and content type, valid and mangled: helpers/fuzz-requests.ts) against a
 * small world of records (helpers/fuzz-world.ts). For each request: never a 5xx; a status the operation
 * documents and a body its schema accepts (the contract check of the test app); an error in the envelope
 * with the code its status has; and a rejected request (any 4xx) changes no row of the database.
 *
 * CI runs a fixed seed and few runs per operation; `npm run fuzz -- --runs N --seed S` (scripts/fuzz.ts)
 * runs this file with FUZZ_RUNS and FUZZ_SEED for a longer search, and prints the seed to replay it.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const RUNS = Number(process.env.FUZZ_RUNS ?? 10);

/**
 * What may change on a rejected request, and why. Everything else of the public schema must be
 * byte-for-byte the same after any 4xx.
 */
const MAY_CHANGE_WHEN_REJECTED: FingerprintIgnore = {
  // A credential that authenticated is marked used even when the request it carried is then refused.
  api_keys: ['last_used_at'],
  oauth_tokens: ['last_used_at'],
  oauth_grants: ['last_used_at'],
  sessions: ['last_seen_at'],
  // Every access decision on a share link is recorded, refusals included (a revoked link, an unpublished
  // demo, a wrong password): the log is the point (docs/sharing.md).
  share_access_log: '*',
};

/** The OAuth endpoints answer errors in RFC 6749 form (RFC 7591's for registration), not in the envelope. */
const RFC6749 = new Set(['/v1/oauth/token', '/v1/oauth/revoke', '/v1/oauth/register']);

// Reads first, then what adds and edits, then what replaces (PUT /v1/demos/{id}/steps gives the steps new
// ids), then deletions, deepest first (a hotspot before its step before its demo), and signing out last: an
// operation takes away the records the others work on only once they have had their turn.
function order(op: Operation): number {
  if (op.path === '/v1/auth/logout') return 1000;
  if (op.method === 'DELETE') return 100 - op.path.split('/').length;
  return { GET: 0, POST: 1, PATCH: 1, PUT: 2 }[op.method] ?? 3;
}

interface Failure {
  operation: string;
  plan: Plan;
  error: string;
}

describe(`fuzzing every operation of the OpenAPI document (${engine}, seed ${SEED}, ${RUNS} runs each)`, () => {
  let t: TestApp;
  let world: World;
  let doc: { paths: Record<string, Record<string, never>> };
  let operations: Operation[];
  // Saving a HubSpot token asks HubSpot first: a local one, as no test reaches the internet.
  let hubspot: HubSpotServer;

  beforeAll(async () => {
    const many = 1_000_000;
    hubspot = await new HubSpotServer().start();
    t = await createTestApp({
      // A small body limit makes "too large" cheap to reach.
      // Dynamic registration is on so that its endpoint is fuzzed too.
      config: {
        RATE_LIMIT_PER_MINUTE: many,
        RATE_LIMIT_PUBLIC_PER_MINUTE: many,
        VIEWER_RATE_LIMIT_PER_MINUTE: many,
        BODY_LIMIT: 65_536,
        OAUTH_DYNAMIC_REGISTRATION: true,
        // Custom domains' verification asks a port where nothing answers: refused at once, never the internet.
        DNS_SERVERS: ['127.0.0.1:9'],
        HUBSPOT_API_URL: hubspot.url,
      },
    });
    const served = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    doc = served.json();
    operations = operationsOf(doc).sort((a, b) => order(a) - order(b));
    const started = Date.now();
    world = await buildWorld(t);
    console.log(`fuzz world built in ${Date.now() - started} ms`);
  });
  afterAll(async () => {
    await t?.close();
    await hubspot?.close();
  });

  it('derives the operations from the served document', () => {
    expect(operations.length).toBeGreaterThan(80);
    expect(operations.filter((op) => op.body).length).toBeGreaterThan(30);
    expect(operations.filter((op) => op.access === 'scope').length).toBeGreaterThan(40);
  });

  it('generates request bodies that the document accepts, mostly', () => {
    const ajv = new Ajv2020({ strict: false, validateSchema: false });
    addFormats.default(ajv);
    for (const op of operations.filter((o) => o.body)) {
      const validate = ajv.compile(op.body!);
      const samples = fc.sample(schemaArbitrary(op.body!), { seed: SEED, numRuns: 10 });
      const valid = samples.filter((s) => validate(s)).length;
      expect(valid, `${op.method} ${op.path}: ${JSON.stringify(validate.errors)}`).toBeGreaterThanOrEqual(6);
    }
  });

  it('sees a change of any watched table, and not one of an ignored column', async () => {
    const fingerprint = fingerprinter(t.db.database, MAY_CHANGE_WHEN_REJECTED);
    const before = await fingerprint.take();
    expect(fingerprint.tables().length).toBeGreaterThan(25);
    await t.db.database.executeSql(`update api_keys set last_used_at = now()`);
    expect(changedTables(before, await fingerprint.take())).toEqual([]);
    const renamed = await t.app.inject({ method: 'PATCH', url: `/v1/demos/${world.other.ids.demo}`, headers: bearer(world.other.key), payload: { title: 'Renamed' } });
    expect(renamed.statusCode).toBe(200);
    expect(changedTables(before, await fingerprint.take())).toContain('demos');
  });

  it(
    'answers every generated request without a 5xx, as documented, and changes nothing when it refuses',
    async () => {
      const fingerprint = fingerprinter(t.db.database, MAY_CHANGE_WHEN_REJECTED);
      const resolver = {
        value: (path: string, param: string, where: 'home' | 'other') => world[where].ids[worldKey(path, param)]!,
        credential(credential: Plan['credential'], op: Operation): Record<string, string> {
          const session = world.home.session;
          switch (credential) {
            case 'none':
              return {};
            case 'garbage':
              return { authorization: 'Bearer dsk_not-a-real-key-\u00e9' };
            case 'revoked':
              return bearer(world.revokedKey);
            case 'narrow':
              return bearer(op.scope === 'demos:read' ? world.narrowKeys['team:read']! : world.narrowKeys['demos:read']!);
            case 'admin-key':
              return bearer(world.home.key);
            case 'session':
              return { cookie: session.cookie, 'x-csrf-token': session.csrf };
            case 'session-without-csrf':
              return { cookie: session.cookie };
          }
        },
      };
      const failures: Failure[] = [];
      let requests = 0;
      let rejected = 0;
      let fingerprintMs = 0;
      const accepted = new Set<string>();
      const started = performance.now();
      let before = await fingerprint.take();

      async function check(op: Operation, plan: Plan) {
        const options = resolvePlan(op, plan, resolver);
        requests++;
        // The contract check of the test app throws on an undocumented status or a body off its schema.
        const outcome = await t.app.inject(options).then(
          (res) => ({ res }),
          (error: Error) => ({ error }),
        );
        // Taken whatever happened, so that the next request is compared with the state it found.
        const previous = before;
        const fingerprintStarted = performance.now();
        const after = await fingerprint.take();
        fingerprintMs += performance.now() - fingerprintStarted;
        before = after;
        if ('error' in outcome) throw outcome.error;
        const res: LightMyRequestResponse = outcome.res;
        const where = `${op.method} ${op.path} answered ${res.statusCode}`;
        if (res.statusCode >= 500) throw new Error(`${where}: ${res.body.slice(0, 500)}`);
        // A `..` segment takes the address to another route, as any HTTP client resolves it: that address's 404 or 405.
        const elsewhere = Object.values(plan.path).some((v) => v.kind === 'literal' && v.value === '..');
        const undocumented = !op.statuses.has(String(res.statusCode)) && !(elsewhere && (res.statusCode === 404 || res.statusCode === 405));
        if (undocumented) throw new Error(`${where}, which the document does not list: ${res.body.slice(0, 300)}`);
        if (res.statusCode < 400) {
          accepted.add(`${op.method} ${op.path}`);
          return;
        }
        rejected++;
        const body = res.json();
        if (RFC6749.has(op.path)) {
          if (typeof body.error !== 'string' || typeof body.error_description !== 'string') throw new Error(`${where} not in RFC 6749 form: ${res.body}`);
        } else {
          const error = body.error;
          if (!error || typeof error.message !== 'string' || error.request_id !== res.headers['x-request-id']) throw new Error(`${where} outside the error envelope: ${res.body.slice(0, 300)}`);
          if (ERROR_STATUS[error.code as keyof typeof ERROR_STATUS] !== res.statusCode) throw new Error(`${where} with code ${error.code}, which is a ${ERROR_STATUS[error.code as keyof typeof ERROR_STATUS]}`);
        }
        const changed = changedTables(previous, after);
        if (changed.length > 0) throw new Error(`${where} (${body.error?.code ?? body.error}) but changed ${changed.join(', ')}`);
      }

      let shapes = 0;
      for (const [index, op] of operations.entries()) {
        // The shapes first: registration allows 10 attempts an hour per address, and they must reach the handler.
        for (const { shape, plan } of shapePlans(op, SEED + index)) {
          shapes++;
          try {
            await check(op, plan);
          } catch (error) {
            failures.push({ operation: `${op.method} ${op.path} (${shape})`, plan, error: String((error as Error)?.message ?? error) });
          }
        }
        const result = await fc.check(
          fc.asyncProperty(planArbitrary(op), (plan) => check(op, plan)),
          { seed: SEED + index, numRuns: RUNS, endOnFailure: true },
        );
        if (result.failed) {
          failures.push({ operation: `${op.method} ${op.path}`, plan: result.counterexample![0], error: String((result.errorInstance as Error)?.message ?? result.errorInstance) });
        }
      }
      const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      console.log(
        `fuzz (${engine}): ${operations.length} operations, ${requests} requests (${rejected} refused) in ${seconds(performance.now() - started)} ` +
          `(${seconds(fingerprintMs)} of it fingerprinting the database), seed ${SEED}, ${RUNS} runs each and ${shapes} shapes, ${failures.length} failures`,
      );
      // Not a failure (a generated body can miss what a handler wants beyond its schema), but worth a look.
      const neverAccepted = operations.map((op) => `${op.method} ${op.path}`).filter((name) => !accepted.has(name));
      console.log(`fuzz (${engine}): ${operations.length - neverAccepted.length} operations accepted at least one request; never: ${neverAccepted.join(', ')}`);
      const report = failures.map((f) => `${f.operation}: ${f.error}\n    plan: ${JSON.stringify(f.plan).slice(0, 600)}`);
      expect(report).toEqual([]);
    },
    Math.max(240_000, RUNS * 101 * 1_000),
  );
});
