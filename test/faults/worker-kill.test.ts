import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine } from '../helpers/database';
import { workerChildren } from '../helpers/service-process';
import { bearer, createTestApp, type TestApp, type TestSession } from '../helpers/test-app';
import { eventually, WebhookReceiver } from '../helpers/webhook-receiver';

const onPostgres = engine === 'postgres';
if (!onPostgres) {
  console.warn('\n*** SKIPPED: the worker kill -9 tests need PostgreSQL (worker processes beside the test). Set TEST_DATABASE_URL. ***\n');
}

const WEBHOOK_TIMEOUT_MS = 3_000;
// A claim's lease is WEBHOOK_TIMEOUT + 30 s (core/delivery/delivery-loop.ts): a dead worker's claims are taken over then.
const WEBHOOK_LEASE_MS = WEBHOOK_TIMEOUT_MS + 30_000;
const GENERATION_LEASE_MS = 6_000;
const GENERATION_TIMEOUT_MS = 60_000;
const PAGE_DELAY_MS = 2_500;

const WORKER_ENV = {
  ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32',
  WEBHOOK_RETRY_DELAYS: '1s,1s,1s,1s,1s',
  WEBHOOK_TIMEOUT: `${WEBHOOK_TIMEOUT_MS}ms`,
  WEBHOOK_POLL_INTERVAL: '200ms',
  WEBHOOK_CONCURRENCY: '4',
  CHROMIUM_PATH: 'none',
  GENERATION_MAX_PAGES: '0',
  GENERATION_TIMEOUT: `${GENERATION_TIMEOUT_MS}ms`,
  GENERATION_LEASE: `${GENERATION_LEASE_MS}ms`,
};

/** The test site's pricing page, each request answered only after PAGE_DELAY_MS: a generation is mid-capture for that long. */
async function startSlowSite() {
  const page = await readFile(join(import.meta.dirname, '..', 'fixtures', 'site', 'pricing.html'));
  const requests: Array<{ path: string; at: number }> = [];
  const server: Server = createServer((req, res) => {
    requests.push({ path: req.url ?? '/', at: Date.now() });
    setTimeout(() => {
      if (res.destroyed) return;
      if (req.url === '/pricing') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    }, PAGE_DELAY_MS);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/pricing`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.skipIf(!onPostgres)('kill -9 of a worker process', () => {
  let t: TestApp;
  let admin: TestSession;
  let receiver: WebhookReceiver;
  const workers = workerChildren(() => ({ DATABASE_URL: t.db.url!, ...WORKER_ENV }));

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    // This process serves the API only; the worker children do the work.
    t = await createTestApp({ config: { ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32', RATE_LIMIT_PER_MINUTE: 100_000 } });
    admin = await t.signUp();
  });
  afterAll(async () => {
    await workers.killAll();
    await t?.close();
    await receiver?.close();
  });

  const worker = () => workers.start();

  it('in the middle of webhook deliveries: every event delivered, again only where the receiver had not answered', async () => {
    const EVENTS = 40;
    const hook = await admin.inject({ method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.url}/slow`, events: ['webhook.test'] } });
    expect(hook.statusCode).toBe(201);
    const hookId = hook.json().data.id as string;
    // A slow receiver: deliveries stay in flight for 1.5 s, so the kill catches several.
    receiver.respond(() => ({ status: 200, delayMs: 1_500 }));
    const [victim] = [await worker(), await worker()];
    const eventIds: string[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const res = await admin.inject({ method: 'POST', url: `/v1/webhooks/${hookId}/test` });
      expect(res.statusCode).toBe(201);
      eventIds.push(res.json().data.event_id);
    }
    const slow = () => receiver.received.filter((r) => r.path === '/slow');
    await receiver.waitFor(() => slow().length >= 12, 60_000, '12 deliveries under way');
    const killedAt = Date.now();
    await victim!.kill();
    // Resolved on the exit: nothing the victim sent can arrive later than this. Until the signal landed it
    // could still send, so what was in flight when it died counts from the receiver's view at death.
    const diedAt = Date.now();
    // A second copy goes out only for a delivery the dead worker never recorded: one the receiver had not
    // answered, or had answered an instant before the kill (too late for the worker to commit the outcome).
    const RECORDING_WINDOW_MS = 2_000;
    const unrecorded = (r: { answeredAt?: number }) => r.answeredAt === undefined || r.answeredAt > killedAt - RECORDING_WINDOW_MS;
    const inFlightAtKill = slow().filter((r) => r.at <= diedAt && unrecorded(r)).length;
    // Restarted: the new process and the other worker share what is left.
    await worker();

    const delivered = await receiver.waitFor(
      () => new Set(slow().map((r) => r.headers['webhook-id'])).size >= EVENTS,
      WEBHOOK_LEASE_MS + 60_000,
      'every event at the receiver',
    );
    // Delivered means recorded as succeeded: the dead worker's claims only once their lease ended.
    const rows = await eventually(
      async () => {
        const res = await admin.inject({ method: 'GET', url: `/v1/webhooks/${hookId}/deliveries?per_page=100` });
        const data = res.json().data as Array<{ status: string; attempts: number; event_id: string }>;
        return data.length === EVENTS && data.every((d) => d.status === 'succeeded') ? data : undefined;
      },
      WEBHOOK_LEASE_MS + 60_000,
      'every delivery succeeded',
    );
    const allDeliveredMs = Date.now() - killedAt;
    expect(new Set(rows.map((r) => r.event_id))).toEqual(new Set(eventIds));

    const byId = new Map<string, typeof delivered>();
    for (const r of slow()) byId.set(String(r.headers['webhook-id']), [...(byId.get(String(r.headers['webhook-id'])) ?? []), r]);
    const duplicated = [...byId.values()].filter((copies) => copies.length > 1);
    for (const copies of duplicated) {
      const first = copies[0]!;
      expect(first.at).toBeLessThanOrEqual(diedAt);
      expect(unrecorded(first)).toBe(true);
      expect(copies.slice(1).every((c) => c.body.equals(first.body))).toBe(true);
    }
    expect(duplicated.length).toBeLessThanOrEqual(inFlightAtKill);
    // The victim's claims were taken over at the end of their lease, not before.
    expect(allDeliveredMs).toBeGreaterThan(duplicated.length > 0 ? WEBHOOK_LEASE_MS - 10_000 : 0);
    // Only the victim's claims have a second attempt: every delivery sent twice, plus any it had claimed
    // (the counter moves at the claim) but died before sending. It held at most WEBHOOK_CONCURRENCY.
    const retaken = rows.filter((r) => r.attempts > 1);
    const retakenIds = new Set(retaken.map((r) => r.event_id));
    // The webhook-id header is the event id.
    const duplicatedEventIds = duplicated.map((copies) => String(copies[0]!.headers['webhook-id']));
    expect(retaken.length).toBeGreaterThanOrEqual(duplicated.length);
    expect(retaken.length).toBeLessThanOrEqual(Number(WORKER_ENV.WEBHOOK_CONCURRENCY));
    expect(retaken.every((r) => r.attempts === 2)).toBe(true);
    for (const id of duplicatedEventIds) expect(retakenIds.has(id)).toBe(true);
    // The bound: a dead worker's claims are taken over when their lease ends, then delivered.
    // Room for a loaded machine (measured 34-46 s with a 33 s lease).
    expect(allDeliveredMs).toBeLessThan(WEBHOOK_LEASE_MS + 40_000);
    console.info(
      `webhooks kill -9: ${EVENTS} events, ${inFlightAtKill} at the receiver unanswered or just answered at the kill (both workers), ${duplicated.length} sent again, ${retaken.length} attempted twice ` +
        `(first copy answered only after the kill, to a dead sender: ${duplicated.filter((c) => c[0]!.answeredAt === undefined || c[0]!.answeredAt > killedAt).length}); all recorded as delivered ` +
        `${allDeliveredMs} ms after the kill (claim lease ${WEBHOOK_LEASE_MS} ms)`,
    );
  });

  it('during a generation: finished after a restart within the lease bound, once', async () => {
    const site = await startSlowSite();
    try {
      // Only one worker runs the generation, so the victim is the one holding it.
      await workers.killAll();
      const victim = await worker();
      const key = await t.apiKey('all', admin);
      const created = await t.app.inject({
        method: 'POST',
        url: '/v1/demos',
        headers: bearer(key),
        payload: { title: 'Slow pricing', source_url: site.url, generate_with_ai: true },
      });
      expect(created.statusCode).toBe(201);
      const demoId = created.json().data.id as string;
      await eventually(async () => site.requests.length >= 1, 60_000, 'the capture to start');
      const killedAt = Date.now();
      await victim.kill();
      await worker();
      const restartMs = Date.now() - killedAt;

      const demo = await eventually(
        async () => {
          const res = await t.app.inject({ method: 'GET', url: `/v1/demos/${demoId}`, headers: bearer(key) });
          const data = res.json().data;
          return data.status === 'generating' ? undefined : data;
        },
        GENERATION_TIMEOUT_MS + 75_000,
        'the generation to finish',
      );
      const finishedMs = Date.now() - killedAt;
      expect(demo).toMatchObject({ status: 'draft', generation: { status: 'succeeded', error: null } });
      expect(demo.step_count).toBeGreaterThan(0);
      // The bound of docs/demos.md: lease × 4/3 + ~1 s to start again (here no worker runs until the restart
      // is up, so the lease lapses at the later of the two), plus the capture itself (one slow page), with
      // room for a loaded machine; pg-boss's expiry alone would take GENERATION_TIMEOUT + 75 s.
      const bound = Math.max(restartMs, GENERATION_LEASE_MS) + GENERATION_LEASE_MS / 3 + 1_000 + PAGE_DELAY_MS + 15_000;
      expect(finishedMs).toBeLessThan(bound);
      expect(bound).toBeLessThan(GENERATION_TIMEOUT_MS + 75_000);
      // Captured twice (the dead attempt and the new one), written once.
      expect(site.requests.filter((r) => r.path === '/pricing')).toHaveLength(2);
      const generated = (
        await t.ctx.database.executeSql(`select data from events where kind = 'demo.generated' and data->>'demo_id' = $1`, [demoId])
      ).rows;
      expect(generated).toHaveLength(1);
      const jobs = (
        await t.ctx.database.executeSql(`select state, data from pgboss.job where name = 'demos.generate' and data->>'demoId' = $1 order by created_on`, [
          demoId,
        ])
      ).rows as Array<{ state: string; data: { takeovers?: number } }>;
      expect(jobs.map((j) => j.state)).toEqual(['cancelled', 'completed']);
      expect(jobs[1]!.data.takeovers).toBe(1);
      console.info(
        `generation kill -9: finished ${finishedMs} ms after the kill (worker restarted in ${restartMs} ms; lease ${GENERATION_LEASE_MS} ms, page ${PAGE_DELAY_MS} ms; ` +
          `pg-boss expiry would be ${GENERATION_TIMEOUT_MS + 75_000} ms)`,
      );
    } finally {
      await site.close();
    }
  });
});
