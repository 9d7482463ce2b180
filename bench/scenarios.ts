import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../src/db/client';
import { seedViews } from '../src/viewing/seed-views';
import { seedDemo } from './seed-demo';

/**
 * The benchmark's targets, measured in this order in every run. To add one, append a scenario (and, when it
 * needs data, a seed that returns the ids its path uses). `baseline` names the scenario its ratio is taken
 * against, and `target` the smallest acceptable ratio (the run reports MISS below it).
 */
export interface Scenario {
  name: string;
  /** `bare`: the baseline server (no auth, no hooks); `app`: the real application. */
  server: 'app' | 'bare';
  path: (ids: Record<string, string>) => string;
  /** Headers of every request; `key` is the seeded API key with every scope. */
  headers?: (ids: Record<string, string>, key: string) => Record<string, string>;
  /** A POST body per request, with the request's extra headers (for traffic that changes every time). */
  post?: (ids: Record<string, string>) => () => { body: string; headers: Record<string, string> };
  /** Units of work per request (events per ingestion request): the ratio compares units per second. */
  units?: number;
  /** After the run: how many units the server holds, to check that every acknowledged one was stored. */
  stored?: string;
  baseline?: string;
  target?: number;
  /**
   * Not HTTP load: one POST to this path of the bare server makes the server run the work itself for the
   * scenario's seconds and answer with its figures (`{units, seconds, p50, p99}`).
   */
  inProcess?: true;
  /** A second baseline, reported as the like-for-like ratio (units/s against units/s). */
  compare?: string;
}

export interface SeedContext {
  app: FastifyInstance;
  key: string;
  ids: Record<string, string>;
  /** The server's database: for data written past the API (views through the real ingestion). */
  database: Database;
}

const VIEWER_SESSIONS = 200;
export const EVENTS_PER_REQUEST = 10;
/** Demos in the workspace the list scenarios page through: a team a few years in. */
const LISTED_DEMOS = 500;

/**
 * A demo of 10 steps and 20 hotspots (its own account and key), published, with a link and 200 viewer
 * sessions (one view each) for the viewer scenarios.
 */
async function seedViewerDemo({ app }: SeedContext): Promise<Record<string, string>> {
  const { call, auth, demo } = await seedDemo(app, ['demos:read', 'demos:write', 'shares:write']);
  await call('PATCH', `/v1/demos/${demo.id}`, { status: 'published' }, auth);
  const share = (await call('POST', `/v1/demos/${demo.id}/shares`, {}, auth)).json().data as { url: string };
  const token = share.url.split('/s/')[1]!;
  const sessions: string[] = [];
  for (let i = 0; i < VIEWER_SESSIONS; i++) {
    const res = await call('GET', `/v1/viewer/${token}`);
    const c = (res.cookies as Array<{ name: string; value: string }>)[0]!;
    sessions.push(`${c.name}=${c.value}`);
  }
  return { demoId: demo.id, demoKey: auth.authorization.slice('Bearer '.length), token, sessions: sessions.join('\n') };
}

/**
 * A workspace of its own with LISTED_DEMOS demos (titles and source URLs, no steps), for the list scenarios:
 * the list reads the workspace's demos newest first, one page at a time.
 */
async function seedListedDemos({ app }: SeedContext): Promise<Record<string, string>> {
  const { call, auth } = await seedDemo(app, ['demos:read', 'demos:write'], 0);
  for (let i = 1; i < LISTED_DEMOS; i++) {
    await call('POST', '/v1/demos', { title: `Listed demo ${i}`, source_url: `https://example.com/app/${i}` }, auth);
  }
  return { listKey: auth.authorization.slice('Bearer '.length) };
}

/** Views of the demo the views list scenarios page through, over 30 days (src/viewing/seed-views.ts). */
const LISTED_VIEWS = 2000;

/** A published demo of 5 steps (its own account and key) with LISTED_VIEWS views, for the views list. */
async function seedListedViews({ app, database }: SeedContext): Promise<Record<string, string>> {
  const { call, auth, demo } = await seedDemo(app, ['demos:read', 'demos:write', 'analytics:read'], 5);
  await call('PATCH', `/v1/demos/${demo.id}`, { status: 'published' }, auth);
  await seedViews(database, { demoId: demo.id, views: LISTED_VIEWS, days: 30, seed: 3 });
  return { viewsDemoId: demo.id, viewsKey: auth.authorization.slice('Bearer '.length) };
}

/** Extra data for scenarios; each returns ids to merge into `ids`. Runs in the server process. */
export const SEEDS: Array<(ctx: SeedContext) => Promise<Record<string, string>>> = [seedViewerDemo, seedListedDemos, seedListedViews];

export const SCENARIOS: Scenario[] = [
  { name: 'bare: constant', server: 'bare', path: () => '/const' },
  { name: 'bare: one PK SELECT', server: 'bare', path: () => '/select', baseline: 'bare: constant' },
  // The cached demo detail's own body (about 10 KB), as a constant: its like-for-like floor.
  { name: 'bare: the demo detail’s bytes', server: 'bare', path: () => '/detail-bytes', baseline: 'bare: constant' },
  // The lists' like-for-like floors: the page's own statement through the same driver, and its bytes.
  { name: 'bare: the demos list’s statement and bytes', server: 'bare', path: () => '/demos-list-floor', baseline: 'bare: one PK SELECT' },
  { name: 'bare: the views list’s statement and bytes', server: 'bare', path: () => '/views-list-floor', baseline: 'bare: one PK SELECT' },
  {
    name: 'GET /v1/team/members (API key)',
    server: 'app',
    path: () => '/v1/team/members',
    headers: (_, key) => ({ authorization: `Bearer ${key}` }),
    baseline: 'bare: one PK SELECT',
    target: 0.8,
  },
  {
    name: 'GET /v1/demos/:id (10 steps, 20 hotspots)',
    server: 'app',
    path: (ids) => `/v1/demos/${ids.demoId}`,
    headers: (ids) => ({ authorization: `Bearer ${ids.demoKey}` }),
    // Served from cache, key and body: no statement at all (test/query-counts.test.ts), so the floor is the constant.
    baseline: 'bare: constant',
    target: 0.5,
    // Like for like: the same bytes from the bare server. What is left is the app's hooks, the key and the cache.
    compare: 'bare: the demo detail’s bytes',
  },
  ...[20, 100].map(
    (perPage): Scenario => ({
      name: `GET /v1/demos?per_page=${perPage} (${LISTED_DEMOS} demos)`,
      server: 'app',
      path: () => `/v1/demos?per_page=${perPage}`,
      headers: (ids) => ({ authorization: `Bearer ${ids.listKey}` }),
      baseline: 'bare: one PK SELECT',
      // One statement per page (test/query-counts.test.ts): half a primary-key SELECT for a page of 20.
      target: perPage === 20 ? 0.5 : undefined,
      compare: perPage === 20 ? 'bare: the demos list’s statement and bytes' : undefined,
    }),
  ),
  ...[20, 100].map(
    (perPage): Scenario => ({
      name: `GET /v1/demos/:id/views?per_page=${perPage} (${LISTED_VIEWS} views)`,
      server: 'app',
      path: (ids) => `/v1/demos/${ids.viewsDemoId}/views?per_page=${perPage}`,
      headers: (ids) => ({ authorization: `Bearer ${ids.viewsKey}` }),
      baseline: 'bare: one PK SELECT',
      // One statement per page, step times and total folded in (test/query-counts.test.ts).
      target: perPage === 20 ? 0.5 : undefined,
      compare: perPage === 20 ? 'bare: the views list’s statement and bytes' : undefined,
    }),
  ),
  // The app's own floor: every hook (request id, rate-limit bookkeeping, headers, metrics) on a constant.
  { name: 'app: GET /healthz (constant)', server: 'app', path: () => '/healthz', baseline: 'bare: constant' },
  {
    name: 'GET /v1/viewer/:token/demo (published payload)',
    server: 'app',
    path: (ids) => `/v1/viewer/${ids.token}/demo`,
    headers: (ids) => ({ cookie: ids.sessions!.split('\n')[0]! }),
    baseline: 'bare: constant',
    target: 0.5,
  },
  // The like-for-like floor of ingestion: the per-event row the API stores (ingested_events: session, event
  // id, time; same primary key and foreign key), inserted EVENTS_PER_REQUEST to a statement by as many
  // concurrent loops as the load has connections, inside the server process: no HTTP, no JSON, no views
  // or roll-ups. Events/s against the API's events/s.
  {
    name: `bare: INSERT ${EVENTS_PER_REQUEST} events per statement (events/s, in-process)`,
    server: 'bare',
    path: () => '/insert-baseline',
    inProcess: true,
  },
  {
    name: `POST /v1/viewer/:token/events (events/s, ${EVENTS_PER_REQUEST} per request)`,
    server: 'app',
    path: (ids) => `/v1/viewer/${ids.token}/events`,
    post: (ids) => {
      const sessions = ids.sessions!.split('\n');
      let next = 0;
      return () => ({
        headers: { cookie: sessions[next++ % sessions.length]!, 'content-type': 'application/json' },
        body: JSON.stringify({
          events: Array.from({ length: EVENTS_PER_REQUEST }, (_, i) => ({
            id: randomUUID(),
            type: 'step_reached',
            step_number: (i % 10) + 1,
            seconds_on_previous: 1.5,
          })),
        }),
      });
    },
    units: EVENTS_PER_REQUEST,
    stored: '/ingested-events',
    baseline: 'bare: one PK SELECT',
    target: 1.0,
    compare: `bare: INSERT ${EVENTS_PER_REQUEST} events per statement (events/s, in-process)`,
  },
];
