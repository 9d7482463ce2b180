import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGeneration, sweepGenerations, takeOverLapsedGenerations } from '../src/demos/demos.jobs';
import { GENERATE_QUEUE } from '../src/demos/generation-start';
import { demos } from '../src/demos/demos.tables';
import { events } from '../src/events/events.tables';
import { createTestDatabase } from './helpers/database';
import { blockingGenerator, fixtureGenerator, fixtureResult, waitForDemo } from './helpers/demos';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

const done = (d: { status: string }) => d.status !== 'generating';

describe('demo generation', () => {
  describe('with workers', () => {
    let t: TestApp;
    let key: string;
    let mode: 'ok' | 'fail' = 'ok';
    const fixture = fixtureGenerator(3);

    beforeAll(async () => {
      t = await createTestApp({
        jobs: true,
        generator: async (options) => {
          if (mode === 'fail') throw new Error('The page answered 500');
          return fixture(options);
        },
      });
      key = await t.apiKey('all');
    });
    afterAll(() => t?.close());

    const call = (method: string, url: string, payload?: unknown) =>
      t.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(payload === undefined ? {} : { payload: payload as object }) });

    it('answers at once with generating, then writes steps, hotspots and assets and becomes draft', async () => {
      mode = 'ok';
      const res = await call('POST', '/v1/demos', { source_url: 'https://example.com/pricing', type: 'interactive', generate_with_ai: true });
      expect(res.statusCode).toBe(201);
      const created = res.json().data;
      expect(created).toMatchObject({ status: 'generating', title: 'example.com/pricing', generate_with_ai: true, steps: [] });
      expect(created.generation.status).toMatch(/queued|running/);

      const demo = await waitForDemo(t, key, created.id, done);
      expect(demo).toMatchObject({
        status: 'draft',
        title: 'Acme pricing',
        step_count: 3,
        generation: { status: 'succeeded', error: null, capture_mode: 'html', writer: 'builtin' },
      });
      const generation = demo.generation as { started_at: string; finished_at: string };
      expect(generation.started_at).not.toBeNull();
      expect(generation.finished_at).not.toBeNull();
      const steps = demo.steps as Array<{ number: number; title: string; width: number; image_url: string; html_url: string }>;
      expect(steps.map((s) => s.number)).toEqual([1, 2, 3]);
      expect(steps[0]).toMatchObject({ title: 'Step 1 of Acme pricing', width: 40, height: 20, page_url: 'https://example.com/pricing#1' });
      expect(demo.thumbnail_url).toBe(steps[0]!.image_url);
      const hotspots = demo.hotspots as Array<{ step_number: number; x: number; width: number; action: unknown }>;
      expect(hotspots).toHaveLength(6);
      // The generated box that spilled over the right edge was clipped into the image.
      const spilled = hotspots.find((h) => h.step_number === 2 && h.x === 0.9);
      expect(spilled?.width).toBeCloseTo(0.1);
      expect(spilled?.action).toEqual({ type: 'goto', target: 1 });

      const img = await call('GET', steps[0]!.image_url.replace(/^https?:\/\/[^/]+/, ''));
      expect(img.headers['content-type']).toBe('image/png');
      const html = await call('GET', steps[0]!.html_url.replace(/^https?:\/\/[^/]+/, ''));
      expect(html.body).toContain('<h1>Page 1</h1>');
      expect(html.headers['content-security-policy']).toContain('sandbox');

      const rows = await t.ctx.database.db.select().from(events).where(eq(events.kind, 'demo.generated'));
      expect(rows.find((r) => r.data.demo_id === created.id)?.data).toMatchObject({ status: 'succeeded', step_count: 3 });
    });

    it('queues the job in the transaction that starts the generation: with it, or not at all', async () => {
      const created = (await call('POST', '/v1/demos', { source_url: 'https://example.com/tx', type: 'interactive', generate_with_ai: true })).json().data;
      // The job id is on the row as the create answers: it was written in the same transaction.
      const [row] = await t.ctx.database.db.select().from(demos).where(eq(demos.id, created.id));
      expect(row!.generationJobId).toMatch(/^[0-9a-f-]{36}$/);
      await waitForDemo(t, key, created.id, done);

      const jobsOf = async (marker: string) =>
        (await t.ctx.database.executeSql(`select id from pgboss.job where name = $1 and data->>'marker' = $2`, ['test.in-transaction', marker])).rows;
      await t.ctx.queue.define({ name: 'test.in-transaction' });
      await expect(
        t.ctx.database.db.transaction(async (tx) => {
          await t.ctx.queue.send('test.in-transaction', { marker: 'rolled-back' }, {}, tx);
          throw new Error('the change fails after the job was queued');
        }),
      ).rejects.toThrow('the change fails');
      expect(await jobsOf('rolled-back')).toEqual([]);
      await t.ctx.database.db.transaction(async (tx) => {
        await t.ctx.queue.send('test.in-transaction', { marker: 'committed', list: [1, 2] }, {}, tx);
      });
      expect(await jobsOf('committed')).toHaveLength(1);
    });

    it('ends a failed generation as draft with generation.error and no steps', async () => {
      mode = 'fail';
      const res = await call('POST', '/v1/demos', { title: 'Kept title', source_url: 'https://example.com/broken', generate_with_ai: true });
      const demo = await waitForDemo(t, key, res.json().data.id, done);
      expect(demo).toMatchObject({
        status: 'draft',
        title: 'Kept title',
        step_count: 0,
        steps: [],
        generation: { status: 'failed', error: 'Generation failed: The page answered 500. Retry it, or add the steps by hand.', error_code: 'failed' },
      });
      const rows = await t.ctx.database.db.select().from(events).where(eq(events.kind, 'demo.generated'));
      expect(rows.find((r) => r.data.demo_id === demo.id)?.data).toMatchObject({ status: 'failed' });
    });

    it('regenerates on POST /v1/demos/:id/generate, replacing the steps', async () => {
      mode = 'fail';
      const res = await call('POST', '/v1/demos', { title: 'Retry me', source_url: 'https://example.com/retry', generate_with_ai: true });
      const failed = await waitForDemo(t, key, res.json().data.id, done);
      expect(failed.generation.status).toBe('failed');
      mode = 'ok';
      const again = await call('POST', `/v1/demos/${failed.id}/generate`);
      expect(again.statusCode).toBe(202);
      expect(again.json().data.status).toBe('generating');
      const demo = await waitForDemo(t, key, failed.id as string, done);
      expect(demo).toMatchObject({ status: 'draft', title: 'Retry me', step_count: 3, generation: { status: 'succeeded', error: null } });
    });

    it('refuses to regenerate a published demo or one without source_url (409)', async () => {
      const plain = (await call('POST', '/v1/demos', { title: 'No source' })).json().data;
      expect((await call('POST', `/v1/demos/${plain.id}/generate`)).statusCode).toBe(409);
      await call('POST', `/v1/demos/${plain.id}/steps`, { title: 'x' });
      const withUrl = (await call('POST', '/v1/demos', { title: 'Live', source_url: 'https://example.com' })).json().data;
      await call('POST', `/v1/demos/${withUrl.id}/steps`, { title: 'x' });
      expect((await call('PATCH', `/v1/demos/${withUrl.id}`, { status: 'published' })).statusCode).toBe(200);
      const res = await call('POST', `/v1/demos/${withUrl.id}/generate`);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toContain('Unpublish');
    });

    it('brings back a demo whose job was never sent, and fails one whose job is gone', async () => {
      mode = 'ok';
      const db = t.ctx.database.db;
      const lost = (await call('POST', '/v1/demos', { title: 'Lost job', source_url: 'https://example.com/lost' })).json().data;
      const unsent = (await call('POST', '/v1/demos', { title: 'Never sent', source_url: 'https://example.com/unsent' })).json().data;
      const longAgo = new Date(Date.now() - 10 * 60_000);
      await db
        .update(demos)
        .set({ status: 'generating', generationStatus: 'running', generationJobId: randomUUID(), updatedAt: longAgo })
        .where(eq(demos.id, lost.id));
      await db
        .update(demos)
        .set({ status: 'generating', generationStatus: 'queued', generationJobId: null, updatedAt: longAgo })
        .where(eq(demos.id, unsent.id));
      await sweepGenerations(t.ctx);
      const failed = (await call('GET', `/v1/demos/${lost.id}`)).json().data;
      expect(failed).toMatchObject({ status: 'draft', generation: { status: 'failed' } });
      expect(failed.generation).toMatchObject({ error_code: 'interrupted' });
      expect(failed.generation.error).toContain('interrupted before it finished');
      const revived = await waitForDemo(t, key, unsent.id, done);
      expect(revived).toMatchObject({ status: 'draft', step_count: 3, generation: { status: 'succeeded' } });
    });
  });

  describe('lease', () => {
    it('takes over a generation whose lease lapsed, fences the dead attempt and its job, and gives up after two takeovers', async () => {
      const t = await createTestApp({ config: { GENERATION_LEASE: 60_000 } });
      try {
        const key = await t.apiKey('all');
        const db = t.ctx.database.db;
        const created = (
          await t.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(key), payload: { source_url: 'https://example.com/lease', generate_with_ai: true } })
        ).json().data;
        const [queued] = await db.select().from(demos).where(eq(demos.id, created.id));
        // A worker claimed it, then died: its lease was last renewed long ago.
        const stale = new Date(Date.now() - 5 * 60_000);
        await db
          .update(demos)
          .set({ generationStatus: 'running', generationAttempt: 'dead-attempt', generationHeartbeatAt: stale })
          .where(eq(demos.id, created.id));
        // A fresh lease is left alone.
        expect(await takeOverLapsedGenerations(t.ctx)).toBe(1);
        expect(await takeOverLapsedGenerations(t.ctx)).toBe(0);
        const [taken] = await db.select().from(demos).where(eq(demos.id, created.id));
        expect(taken).toMatchObject({ status: 'generating', generationStatus: 'queued', generationAttempt: null, generationHeartbeatAt: null });
        expect(taken!.generationJobId).not.toBe(queued!.generationJobId);
        const job = await t.ctx.queue.boss.getJobById(GENERATE_QUEUE, taken!.generationJobId!);
        expect(job?.data).toMatchObject({ demoId: created.id, takeovers: 1 });
        const old = await t.ctx.queue.boss.getJobById(GENERATE_QUEUE, queued!.generationJobId!, { includeArchive: true });
        expect(old?.state).toBe('cancelled');

        // The old job, retried by pg-boss, does not run; the new one does.
        let calls = 0;
        const counting = {
          ...t.ctx,
          generator: async (o: { url: string }) => {
            calls++;
            return fixtureResult(o.url, 2, 'Leased');
          },
        };
        await runGeneration(counting as typeof t.ctx, { demoId: created.id, replaceTitle: false }, queued!.generationJobId!);
        expect(calls).toBe(0);
        await runGeneration(counting as typeof t.ctx, { demoId: created.id, replaceTitle: false }, taken!.generationJobId!);
        expect(calls).toBe(1);
        const [done] = await db.select().from(demos).where(eq(demos.id, created.id));
        expect(done).toMatchObject({ status: 'draft', generationStatus: 'succeeded', generationHeartbeatAt: null });

        // A generation whose worker died three times is given up with a clear error.
        const again = (await t.app.inject({ method: 'POST', url: `/v1/demos/${created.id}/generate`, headers: bearer(key) })).json().data;
        expect(again.status).toBe('generating');
        for (let i = 0; i < 3; i++) {
          await db
            .update(demos)
            .set({ generationStatus: 'running', generationAttempt: `dead-${i}`, generationHeartbeatAt: stale })
            .where(eq(demos.id, created.id));
          expect(await takeOverLapsedGenerations(t.ctx)).toBe(1);
        }
        const [failed] = await db.select().from(demos).where(eq(demos.id, created.id));
        expect(failed).toMatchObject({ status: 'draft', generationStatus: 'failed' });
        expect(failed!.generationError).toContain('stopped 3 times');
      } finally {
        await t.close();
      }
    });
  });

  describe('limits', () => {
    it('refuses a second concurrent generation in one workspace (429), not in another', async () => {
      const t = await createTestApp({ config: { GENERATION_CONCURRENCY: 1 } });
      try {
        const key = await t.apiKey('all');
        const body = { source_url: 'https://example.com', generate_with_ai: true };
        const first = await t.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(key), payload: body });
        expect(first.statusCode).toBe(201);
        const second = await t.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(key), payload: body });
        expect(second.statusCode).toBe(429);
        expect(second.json().error.code).toBe('rate_limited');
        expect(second.headers['retry-after']).toBeDefined();
        const list = await t.app.inject({ method: 'GET', url: '/v1/demos', headers: bearer(key) });
        expect(list.json().meta.total).toBe(1);
        const regen = await t.app.inject({
          method: 'POST',
          url: `/v1/demos/${first.json().data.id}/generate`,
          headers: bearer(key),
        });
        expect(regen.statusCode).toBe(409);
        const other = await t.apiKey('all');
        expect((await t.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(other), payload: body })).statusCode).toBe(201);
      } finally {
        await t.close();
      }
    });

    it('spends the GENERATION_PER_MINUTE budget per workspace (429 with Retry-After)', async () => {
      const t = await createTestApp({ config: { GENERATION_PER_MINUTE: 2, GENERATION_CONCURRENCY: 10 } });
      try {
        const key = await t.apiKey('all');
        const body = { source_url: 'https://example.com', generate_with_ai: true };
        for (let i = 0; i < 2; i++) {
          expect((await t.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(key), payload: body })).statusCode).toBe(201);
        }
        const third = await t.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(key), payload: body });
        expect(third.statusCode).toBe(429);
        expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
        // Plain demos are not generation and do not count.
        expect((await t.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(key), payload: { title: 'x' } })).statusCode).toBe(201);
        expect((await t.app.inject({ method: 'GET', url: '/v1/demos', headers: bearer(key) })).json().meta.total).toBe(3);
      } finally {
        await t.close();
      }
    });
  });

  describe('attempts and restarts', () => {
    it('lets only the latest attempt write: a worker presumed dead cannot overwrite a newer result', async () => {
      const t = await createTestApp();
      try {
        const key = await t.apiKey('all');
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/demos',
          headers: bearer(key),
          payload: { source_url: 'https://example.com/a', generate_with_ai: true },
        });
        const id = res.json().data.id;
        // pg-boss retries an expired job under its own id: both attempts run the demo's job.
        const [row] = await t.ctx.database.db.select().from(demos).where(eq(demos.id, id));
        const jobId = row!.generationJobId!;
        const stale = blockingGenerator(() => fixtureResult('https://example.com/a', 1, 'Stale'));
        const fresh = blockingGenerator(() => fixtureResult('https://example.com/a', 2, 'Fresh'));
        const first = runGeneration({ ...t.ctx, generator: stale.generator }, { demoId: id, replaceTitle: true }, jobId);
        while (stale.calls() === 0) await new Promise((r) => setTimeout(r, 10));
        const second = runGeneration({ ...t.ctx, generator: fresh.generator }, { demoId: id, replaceTitle: true }, jobId);
        while (fresh.calls() === 0) await new Promise((r) => setTimeout(r, 10));
        stale.release();
        await first;
        expect((await t.app.inject({ method: 'GET', url: `/v1/demos/${id}`, headers: bearer(key) })).json().data).toMatchObject({
          status: 'generating',
          step_count: 0,
        });
        fresh.release();
        await second;
        expect((await t.app.inject({ method: 'GET', url: `/v1/demos/${id}`, headers: bearer(key) })).json().data).toMatchObject({
          status: 'draft',
          title: 'Fresh',
          step_count: 2,
        });
      } finally {
        await t.close();
      }
    });

    it('finishes a generation interrupted by a shutdown once a new process starts on the same database', async () => {
      const database = await createTestDatabase();
      const blocked = blockingGenerator(() => fixtureResult('https://example.com/crash', 1, 'From the dead process'));
      let second: TestApp | undefined;
      try {
        const first = await createTestApp({ database, jobs: true, generator: blocked.generator });
        const key = await first.apiKey('all');
        const res = await first.app.inject({
          method: 'POST',
          url: '/v1/demos',
          headers: bearer(key),
          payload: { source_url: 'https://example.com/crash', generate_with_ai: true },
        });
        const id = res.json().data.id;
        await waitForDemo(first, key, id, (d) => d.generation.status === 'running');
        // The worker is stuck inside the generator when its process goes away.
        await first.close();

        second = await createTestApp({ database, jobs: true, generator: fixtureGenerator(2, 'After restart') });
        const demo = await waitForDemo(second, key, id, done, 600);
        expect(demo).toMatchObject({ status: 'draft', title: 'After restart', step_count: 2, generation: { status: 'succeeded' } });

        // The old worker wakes up late: its attempt is no longer the demo's, so it writes nothing.
        blocked.release();
        await new Promise((r) => setTimeout(r, 300));
        const after = (await second.app.inject({ method: 'GET', url: `/v1/demos/${id}`, headers: bearer(key) })).json().data;
        expect(after).toMatchObject({ title: 'After restart', step_count: 2 });
      } finally {
        blocked.release();
        await second?.close();
        await database.drop();
      }
    });
  });
});
