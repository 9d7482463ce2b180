import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATE_QUEUE } from '../../src/demos/generation-start';
import { TEST_DATABASE_URL } from '../helpers/database';
import { callOver, createKeyOver, type RemoteSession, signUpOver } from '../helpers/remote-api';
import { createPostgresDatabase, type PostgresDatabase, RedisServer, ServiceProcess } from '../helpers/service-process';
import { type ForbiddenServer, startForbiddenServer, startTestSite, type TestSite } from '../helpers/site-server';
import { eventually, WebhookReceiver } from '../helpers/webhook-receiver';

// Issue 16, item 1: the service as it is deployed at scale, two API and two worker processes on one
// PostgreSQL and one Redis, checked end to end through the processes' own HTTP APIs.
if (!TEST_DATABASE_URL) {
  console.warn('\n*** SKIPPED: the multi-process test needs PostgreSQL: run it with TEST_DATABASE_URL=postgres://... ***\n');
}

const RATE_LIMIT = 120;
const HOOK_EVENTS = ['demo.created', 'demo.updated', 'demo.published', 'demo.generated'];
const MIGRATIONS = (JSON.parse(readFileSync(new URL('../../drizzle/meta/_journal.json', import.meta.url), 'utf8')) as { entries: unknown[] })
  .entries.length;

describe.skipIf(!TEST_DATABASE_URL)('two serve and two worker processes on one PostgreSQL and one Redis', () => {
  let db: PostgresDatabase;
  let sql: pg.Pool;
  let redis: RedisServer;
  let site: TestSite;
  let forbidden: ForbiddenServer;
  let receiver: WebhookReceiver;
  let apiA: ServiceProcess;
  let apiB: ServiceProcess;
  let workers: ServiceProcess[] = [];
  let admin: RemoteSession;
  let key: string;

  const all = () => [apiA, apiB, ...workers].filter(Boolean);
  const rows = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) => (await sql.query(text, values)).rows as T[];
  /** The processes' output, for a failure message. */
  const outputs = () => all().map((p) => `--- ${p.role} ${p.url}\n${p.tail(30)}`).join('\n');

  beforeAll(async () => {
    [db, redis, receiver, forbidden] = await Promise.all([
      createPostgresDatabase(),
      new RedisServer().start(),
      new WebhookReceiver().start(),
      startForbiddenServer(),
    ]);
    site = await startTestSite(forbidden);
    sql = new pg.Pool({ connectionString: db.url, max: 2 });
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32',
      CHROMIUM_PATH: 'none',
      GENERATION_MAX_PAGES: '0',
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      WEBHOOK_RETRY_DELAYS: '1s,1s,1s,1s,1s',
      WEBHOOK_POLL_INTERVAL: '200ms',
    };
    apiA = ServiceProcess.serve(env);
    apiB = ServiceProcess.serve(env);
    workers = [ServiceProcess.worker(env), ServiceProcess.worker(env)];
    // The same instant, on an empty database: each one migrates as it starts.
    await Promise.all(all().map((p) => p.start(120_000)));

    admin = await signUpOver(apiA.url);
    key = (await createKeyOver(apiA.url, admin)).key;
    const hook = await callOver(apiA.url, 'POST', '/v1/webhooks', {
      key,
      body: { url: `${receiver.url}/cluster`, events: HOOK_EVENTS },
    });
    expect(hook.status).toBe(201);
  });

  afterAll(async () => {
    await Promise.all(all().map((p) => p.kill()));
    await sql?.end();
    await Promise.all([redis?.stop(), receiver?.close(), site?.close(), forbidden?.close()]);
    await db?.drop();
  });

  it('all four start at the same instant on an empty database: each migration and the job schema once', async () => {
    expect(all().every((p) => p.running), outputs()).toBe(true);
    const [migrations] = await rows<{ n: number; hashes: number }>(
      'select count(*)::int as n, count(distinct hash)::int as hashes from drizzle.__drizzle_migrations',
    );
    expect(migrations).toEqual({ n: MIGRATIONS, hashes: MIGRATIONS });
    expect(await rows('select version from pgboss.version')).toHaveLength(1);
    expect(await rows('select name from pgboss.queue group by name having count(*) > 1')).toEqual([]);
    expect(await rows('select 1 from pgboss.queue where name = $1', [GENERATE_QUEUE])).toHaveLength(1);
    // Both API processes answer, on the schema the workers migrated or the other way round.
    for (const api of [apiA, apiB]) expect((await api.fetch('/readyz')).status).toBe(200);
  });

  it('a generation job runs exactly once: one fetch of the page, one job, one set of steps, one demo.generated', async () => {
    const created = await callOver(apiB.url, 'POST', '/v1/demos', {
      key,
      body: { source_url: `${site.origin}/`, type: 'interactive', generate_with_ai: true },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const status = await eventually(async () => {
      const [row] = await rows<{ generation_status: string }>('select generation_status from demos where id = $1', [id]);
      return row && !['queued', 'running'].includes(row.generation_status) && row.generation_status;
    }, 90_000, 'the generation to end');
    expect(status, outputs()).toBe('succeeded');
    // Past the moment a second run would have started (a worker polls every 2 s).
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    expect(site.requests.filter((path) => path === '/')).toHaveLength(1);
    const jobs = await rows<{ state: string; retry_count: number }>(
      `select state, retry_count from pgboss.job where name = $1 and data->>'demoId' = $2
       union all select state, retry_count from pgboss.archive where name = $1 and data->>'demoId' = $2`,
      [GENERATE_QUEUE, id],
    );
    expect(jobs).toEqual([{ state: 'completed', retry_count: 0 }]);
    const [steps] = await rows<{ n: number; positions: number }>(
      'select count(*)::int as n, count(distinct position)::int as positions from steps where demo_id = $1',
      [id],
    );
    expect(steps!.n).toBeGreaterThan(0);
    expect(steps!.positions).toBe(steps!.n);
    const generated = await rows(`select id from events where kind = 'demo.generated' and data->>'demo_id' = $1`, [id]);
    expect(generated).toHaveLength(1);
    const demo = await callOver(apiA.url, 'GET', `/v1/demos/${id}`, { key });
    expect(demo.body.data.step_count).toBe(steps!.n);
  });

  it('each webhook event, made through either API process, is delivered once by one of the two workers', async () => {
    for (let i = 0; i < 8; i++) {
      const [here, there] = i % 2 === 0 ? [apiA, apiB] : [apiB, apiA];
      const made = await callOver(here.url, 'POST', '/v1/demos', { key, body: { title: `Crowd ${i}` } });
      expect(made.status).toBe(201);
      const renamed = await callOver(there.url, 'PATCH', `/v1/demos/${made.body.data.id}`, { key, body: { title: `Crowd ${i}, renamed` } });
      expect(renamed.status).toBe(200);
    }
    const expected = await rows<{ id: string }>('select id from events where workspace_id = $1 and kind = any($2)', [
      admin.workspaceId,
      HOOK_EVENTS,
    ]);
    // 8 created and 8 updated here, and whatever the generation test sent before.
    expect(expected.length).toBeGreaterThanOrEqual(16);
    const eventIds = (received: typeof receiver.received) =>
      received.filter((r) => r.path === '/cluster').map((r) => (JSON.parse(r.body.toString()) as { id: string }).id);
    await receiver.waitFor(
      (received) => expected.every(({ id }) => eventIds(received).includes(id)),
      60_000,
      `${expected.length} deliveries`,
    );
    // Time for a duplicate to arrive, were one on its way.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const got = eventIds(receiver.received);
    expect(got.length).toBe(expected.length);
    expect(new Set(got).size).toBe(expected.length);
    const webhookIds = receiver.received.filter((r) => r.path === '/cluster').map((r) => r.headers['webhook-id']);
    expect(new Set(webhookIds).size).toBe(webhookIds.length);
    const attempts = await rows<{ attempts: number; n: number }>(
      `select d.attempts, (select count(*)::int from webhook_attempts a where a.delivery_id = d.id) as n
       from webhook_deliveries d where d.workspace_id = $1`,
      [admin.workspaceId],
    );
    expect(attempts.length).toBe(expected.length);
    expect(attempts.every((a) => a.attempts === 1 && a.n === 1)).toBe(true);
  });

  it(`rate-limit budgets are shared: ${RATE_LIMIT} requests a minute per key across both API processes, not twice that`, async () => {
    const { key: limited } = await createKeyOver(apiA.url, admin, 'rate-limited');
    const statuses: number[] = [];
    let lastRemaining = '';
    for (let i = 0; i < RATE_LIMIT + 20; i++) {
      const res = await callOver((i % 2 === 0 ? apiA : apiB).url, 'GET', '/v1/demos?per_page=1', { key: limited });
      statuses.push(res.status);
      if (res.status === 200) lastRemaining = res.headers.get('x-ratelimit-remaining') ?? '';
      else expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(RATE_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    expect(statuses.slice(RATE_LIMIT).every((s) => s === 429)).toBe(true);
    expect(lastRemaining).toBe('0');
  });

  it('a key revoked through one API process fails on the other within 2 s', async () => {
    const revoked = await createKeyOver(apiA.url, admin, 'to revoke');
    // Cached on B: it has resolved the key before and would go on trusting it without the bus.
    for (let i = 0; i < 3; i++) expect((await callOver(apiB.url, 'GET', '/v1/demos?per_page=1', { key: revoked.key })).status).toBe(200);
    const res = await callOver(apiA.url, 'DELETE', `/v1/api-keys/${revoked.id}`, { session: admin });
    expect(res.status).toBe(204);
    const revokedAt = performance.now();
    let status = 200;
    while (status === 200 && performance.now() - revokedAt < 5_000) {
      status = (await callOver(apiB.url, 'GET', '/v1/demos?per_page=1', { key: revoked.key })).status;
    }
    const delay = performance.now() - revokedAt;
    console.info(`revocation reached the other API process in ${delay.toFixed(0)} ms`);
    expect(status).toBe(401);
    expect(delay).toBeLessThan(2_000);
    expect((await callOver(apiA.url, 'GET', '/v1/demos?per_page=1', { key: revoked.key })).status).toBe(401);
  });

  it("a demo edited and published through one API process is served fresh by the other's viewer", async () => {
    const demo = await callOver(apiA.url, 'POST', '/v1/demos', { key, body: { title: 'Before' } });
    const id = demo.body.data.id as string;
    const step = await callOver(apiA.url, 'POST', `/v1/demos/${id}/steps`, { key, body: { title: 'Step before' } });
    expect(step.status).toBe(201);
    const stepId = step.body.data.id as string;
    expect((await callOver(apiA.url, 'POST', `/v1/demos/${id}/publish`, { key })).status).toBe(200);
    const share = await callOver(apiA.url, 'POST', `/v1/demos/${id}/shares`, { key, body: {} });
    expect(share.status).toBe(201);
    const token = (share.body.data.url as string).split('/s/')[1]!;
    const viewerOnB = () => callOver(apiB.url, 'GET', `/v1/viewer/${token}/demo`);

    // B caches the link and the payload.
    for (let i = 0; i < 2; i++) {
      const seen = await viewerOnB();
      expect(seen.status).toBe(200);
      expect(seen.body.data).toMatchObject({ title: 'Before', steps: [{ title: 'Step before' }] });
    }

    expect((await callOver(apiA.url, 'PATCH', `/v1/demos/${id}`, { key, body: { title: 'After' } })).status).toBe(200);
    expect((await callOver(apiA.url, 'PATCH', `/v1/demos/${id}/steps/${stepId}`, { key, body: { title: 'Step after' } })).status).toBe(200);
    expect((await callOver(apiA.url, 'POST', `/v1/demos/${id}/publish`, { key })).status).toBe(200);
    // Right after the edit returns: no waiting for a TTL.
    const fresh = await viewerOnB();
    expect(fresh.status).toBe(200);
    expect(fresh.body.data).toMatchObject({ title: 'After', steps: [{ title: 'Step after' }] });

    // Unpublished through A: B stops serving it at once.
    expect((await callOver(apiA.url, 'PATCH', `/v1/demos/${id}`, { key, body: { status: 'draft' } })).status).toBe(200);
    const gone = await viewerOnB();
    expect(gone.status).not.toBe(200);
    expect(gone.status).toBeLessThan(500);
  });
});
