import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, TEST_DATABASE_URL } from '../helpers/database';
import { ServiceProcess } from '../helpers/service-process';
import { poolGauge } from '../helpers/metrics';
import { createShare, demoWithSteps } from '../helpers/shares';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { eventually, WebhookReceiver } from '../helpers/webhook-receiver';
import { runViewerLoad } from './viewer-load';

const onPostgres = engine === 'postgres';
if (!onPostgres) {
  console.warn('\n*** SKIPPED: the database outage test needs PostgreSQL (it cuts the processes off their database). Set TEST_DATABASE_URL. ***\n');
}

const STEPS = 3;
const OUTAGE_MS = 6_000;
const SERVE_ENV = { VIEWER_RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000', RATE_LIMIT_PER_MINUTE: '1000000' };
const WORKER_ENV = {
  ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32',
  WEBHOOK_RETRY_DELAYS: '1s,1s,1s,1s,1s',
  // Far longer than the test's waits: a delivery that arrives quickly was woken by NOTIFY, which proves the
  // worker's LISTEN connection came back after the outage.
  WEBHOOK_POLL_INTERVAL: '120s',
  CHROMIUM_PATH: 'none',
  GENERATION_MAX_PAGES: '0',
};

const page = await readFile(join(import.meta.dirname, '..', 'fixtures', 'site', 'pricing.html'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  at: number;
  /** When the answer came: a probe sent during the outage may wait for a connection and be answered after it. */
  doneAt?: number;
  status: number | 'network';
  body?: string;
  retryAfter?: string | null;
}

describe.skipIf(!onPostgres)('every PostgreSQL backend terminated mid-load', () => {
  let t: TestApp;
  let key: string;
  let demoId: string;
  let token: string;
  let hookId: string;
  let receiver: WebhookReceiver;
  let api: ServiceProcess;
  let worker: ServiceProcess;
  let dbName: string;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await createTestApp({ config: { ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32' } });
    dbName = new URL(t.db.url!).pathname.slice(1);
    const admin = await t.signUp();
    key = await t.apiKey('all', admin);
    demoId = await demoWithSteps(t, key, STEPS);
    token = (await createShare(t, key, demoId)).token;
    const hook = await admin.inject({ method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.url}/views`, events: ['demo.viewed', 'webhook.test'] } });
    expect(hook.statusCode).toBe(201);
    hookId = hook.json().data.id;
    // No REDIS_URL: the cache bus and the webhooks' wake-up both ride the processes' LISTEN connections.
    api = await ServiceProcess.serve({ DATABASE_URL: t.db.url!, ...SERVE_ENV }).start();
    worker = await ServiceProcess.worker({ DATABASE_URL: t.db.url!, ...WORKER_ENV }).start();
  });
  afterAll(async () => {
    // Whatever happened, the database takes connections again before it is dropped.
    await admin(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`).catch(() => {});
    await Promise.all([api?.kill(), worker?.kill()]);
    await t?.close();
    await receiver?.close();
  });

  /** A statement on the maintenance database the test server was named with, as its superuser. */
  async function admin(sql: string) {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  }

  it('answers 503 unavailable while it lasts, recovers by itself, and loses nothing acknowledged', async () => {
    const auth = { ...bearer(key), 'content-type': 'application/json' };
    let stop = false;
    const answers: Array<Answer & { what: string }> = [];
    const record = async (what: string, request: () => Promise<Response>) => {
      const at = Date.now();
      try {
        const res = await request();
        const body = await res.text();
        answers.push({ what, at, status: res.status, body, retryAfter: res.headers.get('retry-after') });
        return res.status;
      } catch {
        answers.push({ what, at, status: 'network' });
        return 0;
      }
    };

    // Readiness, sampled every 100 ms.
    const ready: Answer[] = [];
    const probe = (async () => {
      while (!stop) {
        const at = Date.now();
        try {
          const { status } = await api.fetch('/readyz');
          ready.push({ at, doneAt: Date.now(), status });
        } catch {
          ready.push({ at, doneAt: Date.now(), status: 'network' });
        }
        await sleep(100);
      }
    })();

    // API reads and writes: what a client acknowledged as created must exist afterwards.
    const created: string[] = [];
    const apiLoad = Promise.all(
      Array.from({ length: 3 }, async (_, i) => {
        for (let n = 0; !stop; n++) {
          await record('read', () => api.fetch(`/v1/demos/${demoId}`, { headers: bearer(key) }));
          await record('list', () => api.fetch('/v1/demos?per_page=5', { headers: bearer(key) }));
          const title = `outage ${i}.${n}`;
          const status = await record('write', () =>
            api.fetch('/v1/demos', { method: 'POST', headers: auth, body: JSON.stringify({ title }) }),
          );
          if (status === 201) created.push(title);
          await sleep(50);
        }
      }),
    );
    const viewers = runViewerLoad({ token, processes: [api], viewers: 6, steps: STEPS, keepGoing: () => !stop, retryDelayMs: 200 });

    await sleep(3_000);
    // The outage: no new connection is allowed, and every backend of the database is terminated, over and
    // over, so that connections being opened as it starts are cut too.
    const outageStart = Date.now();
    await admin(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS false`);
    let terminated = 0;
    let tokenAttempt: Promise<Response> | undefined;
    // From the end of the second round on, no connection to the database is left and none can be made: a
    // backend that was starting up during the first round (past the ALLOW_CONNECTIONS check, not yet listed
    // under the database) is cut by the second.
    let cutAt: number | undefined;
    let rounds = 0;
    while (Date.now() - outageStart < OUTAGE_MS) {
      const rows = await admin(
        `select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = '${dbName}' and pid <> pg_backend_pid()`,
      );
      terminated += rows.length;
      if (++rounds === 2) cutAt = Date.now();
      // Once no connection is left: the OAuth token endpoint answers in RFC 6749 form, "try again later".
      tokenAttempt ??= api.fetch('/v1/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=authorization_code&code=x&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&client_id=app_x&client_secret=y',
      });
      await sleep(200);
    }
    const allowing = Date.now();
    await admin(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`);
    const outageEnd = Date.now();

    // Recovery, with nothing restarted: the first successful write after the outage.
    const recovered = await eventually(
      async () => answers.find((a) => a.what === 'write' && a.status === 201 && a.at >= outageEnd),
      30_000,
      'a write to succeed after the outage',
    ).catch((error) => {
      const last = answers.slice(-6).map((a) => `${a.what} ${a.status} ${a.at - outageEnd} ms ${a.body?.slice(0, 200)}`);
      throw new Error(`${error.message}\n${last.join('\n')}\nreadyz: ${JSON.stringify(ready.slice(-3))}\n${api.tail()}`);
    });
    await sleep(3_000);
    stop = true;
    const [viewerResult] = await Promise.all([viewers, apiLoad, probe]);

    const refused = (await tokenAttempt)!;
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: 'temporarily_unavailable' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(api.running, api.tail()).toBe(true);
    expect(worker.running, worker.tail()).toBe(true);
    expect(terminated).toBeGreaterThan(0);

    // /readyz reported the outage while it lasted and was ready again after it. A probe counts as "during" when
    // it was both sent after the cut and answered before connections were allowed again: one sent during the
    // outage waits for a connection (up to DATABASE_ACQUIRE_TIMEOUT) and may rightly get one once it is over.
    const during = ready.filter((r) => r.at > cutAt! && r.doneAt! < allowing);
    expect(during.length).toBeGreaterThan(0);
    expect(
      during.filter((r) => r.status !== 503).map((r) => ({ ...r, at: r.at - outageEnd, doneAt: r.doneAt! - outageEnd })),
    ).toEqual([]);
    const readyAgain = ready.find((r) => r.at > outageEnd && r.status === 200);
    expect(readyAgain, JSON.stringify(ready.slice(-5))).toBeDefined();
    expect(ready.at(-1)?.status).toBe(200);

    // Requests that failed got a clear 503 in the documented envelope, never a 500 or a dropped connection.
    const failed = answers.filter((a) => a.status !== 200 && a.status !== 201);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.filter((a) => a.status !== 503).map((a) => `${a.what} ${a.status} ${a.body}`)).toEqual([]);
    for (const a of failed.slice(0, 20)) {
      const body = JSON.parse(a.body!);
      expect(body.error).toMatchObject({ code: 'unavailable', message: expect.stringContaining('database'), request_id: expect.any(String) });
      expect(Number(a.retryAfter)).toBeGreaterThan(0);
    }
    expect([...viewerResult.failures.keys()].filter((k) => k !== '503')).toEqual([]);
    for (const e of viewerResult.errorBodies) expect(JSON.parse(e.body).error.code).toBe('unavailable');

    // Nothing acknowledged is lost: the demos created and the viewer events acknowledged are stored.
    const db = t.ctx.database;
    const titles = new Set((await db.executeSql(`select title from demos where title like 'outage %'`)).rows.map((r) => r.title));
    expect(created.filter((title) => !titles.has(title))).toEqual([]);
    const stored = new Set((await db.executeSql('select event_id::text as id from ingested_events')).rows.map((r) => r.id));
    expect([...viewerResult.acked.keys()].filter((id) => !stored.has(id))).toEqual([]);
    const [views] = (await db.executeSql('select count(*)::int as n, count(*) filter (where completed)::int as done from views where demo_id = $1', [demoId])).rows;
    expect(views).toEqual({ n: viewerResult.sessions, done: viewerResult.sessions });
    const [daily] = (await db.executeSql('select sum(views)::int as views from demo_daily_stats where demo_id = $1', [demoId])).rows;
    expect(daily).toEqual({ views: viewerResult.sessions });

    // The worker came back by itself: every view's webhook is delivered, and a new event is delivered at
    // once (woken by NOTIFY through its re-established LISTEN connection, not by the 120 s poll).
    await receiver
      .waitFor(() => receiver.received.filter((r) => r.path === '/views').length >= viewerResult.sessions, 60_000, 'the views’ webhooks')
      .catch(async (error) => {
        const states = await db.executeSql('select status, attempts, last_error, next_attempt_at, locked_until from webhook_deliveries');
        const pending = await db.executeSql('select count(*)::int as n from events where dispatched_at is null');
        throw new Error(`${error.message} of ${viewerResult.sessions}\n${JSON.stringify(states.rows)}\n${JSON.stringify(pending.rows)}\n${worker.tail(30)}`);
      });
    const before = receiver.received.length;
    const sentAt = Date.now();
    const test = await api.fetch(`/v1/webhooks/${hookId}/test`, { method: 'POST', headers: bearer(key) });
    expect(test.status).toBe(201);
    await receiver.waitFor((rs) => rs.length > before, 20_000, 'the test event after the outage');
    const wakeMs = Date.now() - sentAt;

    // pg-boss came back too, in both processes: a generation queued by the API after the outage is run
    // by the worker (the test site's page, captured as HTML).
    const site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const source = `http://127.0.0.1:${(site.address() as AddressInfo).port}/pricing`;
      const queuedAt = Date.now();
      const res = await api.fetch('/v1/demos', { method: 'POST', headers: auth, body: JSON.stringify({ source_url: source, generate_with_ai: true }) });
      expect(res.status).toBe(201);
      const id = ((await res.json()) as { data: { id: string } }).data.id;
      const generated = await eventually(
        async () => {
          const demo = ((await (await api.fetch(`/v1/demos/${id}`, { headers: bearer(key) })).json()) as { data: { status: string; generation: { status: string } } }).data;
          return demo.status === 'generating' ? undefined : demo;
        },
        60_000,
        'a generation after the outage',
      );
      expect(generated).toMatchObject({ status: 'draft', generation: { status: 'succeeded' } });
      console.info(`generation queued after the outage finished in ${Date.now() - queuedAt} ms`);
    } finally {
      site.closeAllConnections();
      await new Promise((resolve) => site.close(resolve));
    }

    // No connection was lost for good: a client whose connection was cut while checked out went back to the
    // pool (src/db/pg-pool.ts). The API's pool, with the load stopped, has none in use and no query waiting.
    const pool = await eventually(
      async () => {
        const { in_use, waiting } = poolGauge(await (await api.fetch('/metrics')).text());
        const now = { in_use, waiting };
        return now.in_use === 0 && now.waiting === 0 ? now : undefined;
      },
      10_000,
      'the API’s pool to have no connection in use',
    );
    expect(pool).toEqual({ in_use: 0, waiting: 0 });

    const firstReady = readyAgain!.at - outageEnd;
    const sentDuring = ready.filter((r) => r.at > cutAt! && r.at < allowing);
    const slowestProbe = Math.max(...sentDuring.map((r) => r.doneAt! - r.at));
    console.info(
      `database outage of ${outageEnd - outageStart} ms (${terminated} backends terminated): /readyz 200 again ${firstReady} ms ` +
        `after connections were allowed (slowest probe sent during the outage: ${slowestProbe} ms), ` +
        `first write ${recovered.at - outageEnd} ms after; ${failed.length} API and ` +
        `${[...viewerResult.failures.values()].reduce((a, b) => a + b, 0)} viewer requests answered 503; ` +
        `${viewerResult.sessions} views stored; a webhook event after the outage delivered in ${wakeMs} ms`,
    );
  });
});
