import { readFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATE_QUEUE } from '../src/demos/generation-start';
import { MAIL_QUEUE } from '../src/mail/mail-queue';
import { engine, TEST_DATABASE_URL } from './helpers/database';
import { listeningPorts } from './helpers/listening';
import { poolGauge } from './helpers/metrics';
import { signUpOver } from './helpers/remote-api';
import { createPostgresDatabase, freePort, type PostgresDatabase, ServiceProcess } from './helpers/service-process';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';
import { eventually } from './helpers/webhook-receiver';

// WORKER_PORT: a `demoshare worker` process answers /healthz, /readyz and /metrics (its own pool, jobs and
// event loop) on a port of its own, and nothing else; unset, it listens on nothing. A worker runs beside
// other processes on PostgreSQL only, so those tests need it; `demoshare start` runs on either engine.
const onPostgres = engine === 'postgres';
if (!onPostgres) {
  console.warn('\n*** SKIPPED: the worker process tests need PostgreSQL (worker processes beside the test). Set TEST_DATABASE_URL. ***\n');
}

/** One sample of a metric from /metrics' text, by its labels as written there; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Metric names whose `# TYPE` appears more than once: a registration made twice. */
function duplicateTypes(text: string): string[] {
  const names = [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!);
  return names.filter((name, i) => names.indexOf(name) !== i);
}

/** The test site's pricing page, each request held until `release()`: a generation is mid-capture for as long as the test wants. */
async function startHeldSite() {
  const page = await readFile(join(import.meta.dirname, 'fixtures', 'site', 'pricing.html'));
  const held: ServerResponse[] = [];
  let releasing = false;
  const answer = (res: ServerResponse) => {
    if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  };
  const server: Server = createServer((req, res) => {
    if (req.url !== '/pricing') return res.writeHead(404).end();
    if (releasing) answer(res);
    else held.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/pricing`,
    held,
    release() {
      releasing = true;
      for (const res of held.splice(0)) answer(res);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.skipIf(!onPostgres)('demoshare worker with WORKER_PORT', () => {
  let t: TestApp;
  let admin: TestSession;
  let workerPort: number;
  let worker: ServiceProcess;
  const others: ServiceProcess[] = [];
  const workerEnv = () => ({
    DATABASE_URL: t.db.url!,
    ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32',
    CHROMIUM_PATH: 'none',
    GENERATION_MAX_PAGES: '0',
    // Its own size, so the gauge is seen to be this process's pool.
    DATABASE_POOL_SIZE: '2',
  });
  const probe = (path: string, init?: RequestInit) => fetch(`http://127.0.0.1:${workerPort}${path}`, init);
  const metrics = async () => {
    const res = await probe('/metrics');
    expect(res.status).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    // This process serves the API only; the worker child does the work.
    t = await createTestApp({ config: { ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32', RATE_LIMIT_PER_MINUTE: 100_000 } });
    admin = await t.signUp();
    workerPort = await freePort();
    worker = await ServiceProcess.worker({ ...workerEnv(), WORKER_PORT: String(workerPort) }).start(120_000);
  });
  afterAll(async () => {
    await Promise.all([worker, ...others].map((w) => w?.kill()));
    await t?.close();
  });

  it('says where it listens, and listens there only, on HOST', async () => {
    expect(worker.output).toMatch(new RegExp(`Demoshare worker running; health and metrics on http://127\\.0\\.0\\.1:${workerPort}\\b`));
    expect(listeningPorts(worker.pid!)).toEqual([workerPort]);
  });

  it('answers /healthz, /readyz and /metrics: its own pool, its queues, its event loop and process', async () => {
    const health = await probe('/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await probe('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', database: 'postgres' });

    const res = await probe('/metrics');
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(duplicateTypes(text)).toEqual([]);
    const pool = poolGauge(text);
    expect(pool.waiting).toBe(0);
    expect(pool.in_use + pool.idle).toBeGreaterThanOrEqual(1);
    expect(pool.in_use + pool.idle).toBeLessThanOrEqual(2);
    // Every queue the worker runs shows from the start, at zero.
    for (const queue of [GENERATE_QUEUE, MAIL_QUEUE]) expect(sample(text, `demoshare_jobs_running{queue="${queue}"}`)).toBe(0);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d/m);
    // Its probes count as its requests; the API's routes are not there.
    expect(sample(text, 'demoshare_http_requests_total{method="GET",route="/healthz",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('route="/v1/');
  });

  it('answers anything else with the error body: 404, and 405 for another method of its paths', async () => {
    for (const path of ['/', '/v1/demos', '/v1/openapi.json', '/nothing']) {
      const res = await probe(path);
      expect(res.status, path).toBe(404);
      const body = (await res.json()) as { error: { code: string; message: string; request_id: string } };
      expect(body.error).toMatchObject({ code: 'not_found', message: `No route for GET ${path}` });
      expect(body.error.request_id).toBe(res.headers.get('x-request-id'));
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    // A malformed escape is refused by the router before any hook: the error body and the same headers all the same.
    const malformed = await probe('/healthz%zz');
    expect(malformed.status).toBe(400);
    const refused = (await malformed.json()) as { error: { code: string; request_id: string } };
    expect(refused.error.code).toBe('invalid_request');
    expect(refused.error.request_id).toMatch(/^req_/);
    expect(refused.error.request_id).toBe(malformed.headers.get('x-request-id'));
    expect(malformed.headers.get('x-content-type-options')).toBe('nosniff');
    const post = await probe('/metrics', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect(((await post.json()) as { error: { code: string } }).error.code).toBe('method_not_allowed');
  });

  it('shows a job while it runs and its attempt once done, and answers its probes meanwhile', async () => {
    const site = await startHeldSite();
    try {
      const before = await metrics();
      const completed = `demoshare_job_attempts_total{queue="${GENERATE_QUEUE}",outcome="completed"}`;
      const doneBefore = sample(before, completed) ?? 0;
      const key = await t.apiKey('all', admin);
      const created = await t.app.inject({
        method: 'POST',
        url: '/v1/demos',
        headers: bearer(key),
        payload: { title: 'Held pricing', source_url: site.url, generate_with_ai: true },
      });
      expect(created.statusCode).toBe(201);
      const demoId = created.json().data.id as string;
      await eventually(async () => site.held.length >= 1, 60_000, 'the capture to start');

      // Mid-job: the worker is busy with it, and its port answers all the same.
      const started = performance.now();
      expect((await probe('/healthz')).status).toBe(200);
      expect((await probe('/readyz')).status).toBe(200);
      const during = await metrics();
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(sample(during, `demoshare_jobs_running{queue="${GENERATE_QUEUE}"}`)).toBe(1);
      expect(sample(during, completed) ?? 0).toBe(doneBefore);

      site.release();
      const demo = await eventually(
        async () => {
          const data = (await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}`, headers: bearer(key) })).json().data;
          return data.status === 'generating' ? undefined : data;
        },
        60_000,
        'the generation to finish',
      );
      expect(demo).toMatchObject({ generation: { status: 'succeeded' } });
      const after = await eventually(async () => {
        const text = await metrics();
        return sample(text, completed) === doneBefore + 1 ? text : undefined;
      }, 10_000, 'the attempt to be counted');
      expect(sample(after, `demoshare_jobs_running{queue="${GENERATE_QUEUE}"}`)).toBe(0);
      expect(sample(after, `demoshare_job_attempts_total{queue="${GENERATE_QUEUE}",outcome="failed"}`)).toBe(0);
      // The API process ran no job: its own /metrics has the series of none.
      const api = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(api).not.toMatch(/^demoshare_jobs_running\{/m);
    } finally {
      site.release();
      await site.close();
    }
  });

  it('without WORKER_PORT, a worker listens on nothing', async () => {
    const plain = await ServiceProcess.worker(workerEnv()).start(120_000);
    others.push(plain);
    expect(plain.output).toMatch(/Demoshare worker running\n/);
    expect(listeningPorts(plain.pid!)).toEqual([]);
  });

  it('a WORKER_PORT already taken: the second worker exits 1 with one line that says so', async () => {
    const second = ServiceProcess.worker({ ...workerEnv(), WORKER_PORT: String(workerPort) });
    others.push(second);
    await expect(second.start(120_000)).rejects.toThrow(
      new RegExp(`WORKER_PORT: cannot listen on 127\\.0\\.0\\.1:${workerPort} \\(EADDRINUSE\\): give each worker on a machine a port of its own`),
    );
    expect(second.exitCode).toBe(1);
    expect(second.output).not.toMatch(/\n\s+at /);
  });

  it('a graceful stop closes the port and the process exits 0', async () => {
    await worker.stop();
    expect(worker.exitCode).toBe(0);
    await expect(probe('/healthz')).rejects.toThrow();
  });
});

describe('demoshare start (API and workers in one process) with WORKER_PORT set', () => {
  let db: PostgresDatabase | undefined;
  let start: ServiceProcess;
  let workerPort: number;

  beforeAll(async () => {
    db = TEST_DATABASE_URL ? await createPostgresDatabase() : undefined;
    workerPort = await freePort();
    start = await new ServiceProcess('start', { DATABASE_URL: db?.url, WORKER_PORT: String(workerPort) }).start(180_000);
  });
  afterAll(async () => {
    await start?.kill();
    await db?.drop();
  });

  it(`serves one /metrics, on PORT, each metric registered once, with the jobs it runs (${engine})`, async () => {
    expect(listeningPorts(start.pid!)).toEqual([Number(new URL(start.url).port)]);
    await signUpOver(start.url);
    const completed = `demoshare_job_attempts_total{queue="${MAIL_QUEUE}",outcome="completed"}`;
    // The sign-up's verification e-mail is a job this process runs.
    const text = await eventually(async () => {
      const res = await start.fetch('/metrics');
      expect(res.status).toBe(200);
      const body = await res.text();
      return (sample(body, completed) ?? 0) >= 1 ? body : undefined;
    }, 30_000, 'the e-mail job to be counted');
    expect(duplicateTypes(text)).toEqual([]);
    expect(text.match(/^# TYPE demoshare_jobs_running /gm)).toHaveLength(1);
    expect(sample(text, `demoshare_jobs_running{queue="${GENERATE_QUEUE}"}`)).toBe(0);
    expect(sample(text, 'demoshare_http_requests_total{method="POST",route="/v1/auth/signup",status="201"}')).toBe(1);
    if (db) expect(poolGauge(text).idle + poolGauge(text).in_use).toBeGreaterThanOrEqual(1);
    else expect(text).not.toContain('demoshare_database_connections');
  });

  it(`a PORT already taken: the second process exits 1 with one line that says so (${engine})`, async () => {
    const port = new URL(start.url).port;
    const second = new ServiceProcess('start', { DATABASE_URL: db?.url, PORT: port, APP_URL: start.url });
    await expect(second.start(180_000)).rejects.toThrow(
      new RegExp(`PORT: cannot listen on 127\\.0\\.0\\.1:${port} \\(EADDRINUSE\\): stop the other server on it, or choose another PORT`),
    );
    expect(second.exitCode).toBe(1);
    expect(second.output).not.toMatch(/\n\s+at /);
  });
});
