import { createHash } from 'node:crypto';
import { threadId } from 'node:worker_threads';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config';
import { MAX_NESTING_DEPTH } from '../src/generation/html-parse';
import { recordingChunks } from '../src/recordings/recordings.tables';
import { bearer, createTestApp } from './helpers/test-app';

const digest = (body: string) => `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;

/** A page of `bytes` (at least) with no element deeper than a table cell: a script and a password in it. */
function flatSnapshot(bytes: number): string {
  const rows: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const row = `<tr class="r${i % 50}"><td><a href="/invoices/${i}" onclick="steal()">INV-${i}</a></td><td>Customer ${i}</td></tr>`;
    rows.push(row);
    size += row.length;
  }
  return `<!doctype html><html><head><script>steal()</script></head><body><input type="password" value="hunter2-secret"><table>${rows.join('')}</table></body></html>`;
}

const step = (snapshot: string) => ({
  action: 'click',
  title: 'Open the invoice',
  page_url: 'https://app.example.com/invoices',
  viewport: { width: 1280, height: 800 },
  target: null,
  screenshot: null,
  snapshot,
});

/** An app whose recordings take snapshots of up to 8 MB (the default), with an API key. */
async function appWithKey(config: Partial<Config> = {}) {
  const t = await createTestApp({ config: { RATE_LIMIT_PER_MINUTE: 100_000, ...config } });
  const key = await t.apiKey('all');
  const put = (id: string, n: number, snapshot: string) => {
    const body = JSON.stringify(step(snapshot));
    return t.app.inject({
      method: 'PUT',
      url: `/v1/recordings/${id}/steps/${n}`,
      headers: { ...bearer(key), 'content-type': 'application/json', 'content-digest': digest(body) },
      payload: body,
    });
  };
  const start = async (steps: number) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/recordings', headers: bearer(key), payload: { step_count: steps } });
    expect(res.statusCode).toBe(201);
    return res.json().data.id as string;
  };
  const stored = async (id: string) =>
    t.ctx.database.db.select({ number: recordingChunks.number, snapshot: recordingChunks.snapshot }).from(recordingChunks).where(eq(recordingChunks.recordingId, id));
  return { t, key, put, start, stored };
}

describe('document work in worker threads', () => {
  let app: Awaited<ReturnType<typeof appWithKey>>;
  beforeAll(async () => {
    app = await appWithKey();
  });
  afterAll(() => app?.t.close());

  it.each([MAX_NESTING_DEPTH + 1, 5_000, 100_000])('refuses a snapshot nested %i levels deep with a 400 naming the limit, storing nothing', async (depth) => {
    const id = await app.start(1);
    const res = await app.put(id, 1, '<div>'.repeat(depth));
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('invalid_request');
    expect(error.message).toContain(`more than ${MAX_NESTING_DEPTH} levels deep`);
    expect(error.details).toEqual([{ field: 'snapshot', message: `may nest elements at most ${MAX_NESTING_DEPTH} levels deep` }]);
    expect(await app.stored(id)).toEqual([]);
  });

  it('takes a snapshot nested exactly to the limit', async () => {
    const id = await app.start(1);
    const res = await app.put(id, 1, `${'<div>'.repeat(MAX_NESTING_DEPTH)}deep enough`);
    expect(res.statusCode).toBe(200);
    const [chunk] = await app.stored(id);
    expect(chunk!.snapshot!.toString('utf8')).toContain('deep enough');
  });

  it('cleans a 2 MB snapshot in a worker thread while the event loop keeps answering', async () => {
    const { t } = app;
    const before = t.ctx.documents.stats();
    const id = await app.start(1);
    const snapshot = flatSnapshot(2 * 1024 * 1024);
    const upload = app.put(id, 1, snapshot);
    // Once a thread has the task, the main thread answers a request before the task is done: the
    // cleaning is not on this event loop.
    let busy = t.ctx.documents.stats();
    while (busy.busy === 0 && busy.completed === before.completed) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      busy = t.ctx.documents.stats();
    }
    expect(busy.completed).toBe(before.completed);
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(t.ctx.documents.stats().completed).toBe(before.completed);

    const res = await upload;
    expect(res.statusCode).toBe(200);
    const after = t.ctx.documents.stats();
    expect(after.completed).toBe(before.completed + 1);
    expect(after.threads.length).toBeGreaterThan(0);
    expect(after.threads).not.toContain(threadId);
    // Compared as counts and flags: a failure would otherwise print 2 MB.
    const html = (await app.stored(id))[0]!.snapshot!.toString('utf8');
    const rows = (text: string) => text.split('<tr ').length - 1;
    expect(rows(html)).toBe(rows(snapshot));
    expect({ script: html.includes('<script'), handler: html.includes('onclick'), password: html.includes('hunter2-secret') }).toEqual({
      script: false,
      handler: false,
      password: false,
    });
  });
});

describe('the document workers’ limits', () => {
  it('ends a task past DOCUMENT_TASK_TIMEOUT with a 413 naming it, and replaces the thread', async () => {
    const app = await appWithKey({ DOCUMENT_WORKERS: 1, DOCUMENT_TASK_TIMEOUT: 500 });
    try {
      const id = await app.start(2);
      const res = await app.put(id, 1, flatSnapshot(7 * 1024 * 1024));
      expect(res.statusCode).toBe(413);
      const { error } = res.json();
      expect(error.code).toBe('payload_too_large');
      expect(error.message).toBe('The snapshot took longer than 500 ms to process: the limit is 500 ms (DOCUMENT_TASK_TIMEOUT)');
      expect(error.details).toEqual([{ field: 'snapshot', message: 'must be processed within 500 ms (DOCUMENT_TASK_TIMEOUT)' }]);
      const stats = app.t.ctx.documents.stats();
      expect(stats.timedOut).toBe(1);
      expect(stats.threads).toEqual([]);
      expect(await app.stored(id)).toEqual([]);

      // A new thread takes the next task.
      const small = await app.put(id, 2, '<p>Small page</p>');
      expect(small.statusCode).toBe(200);
      expect(app.t.ctx.documents.stats().threads).toHaveLength(1);
    } finally {
      await app.t.close();
    }
  });

  it('refuses work past DOCUMENT_QUEUE with 503 and Retry-After, and does the rest', async () => {
    const app = await appWithKey({ DOCUMENT_WORKERS: 1, DOCUMENT_QUEUE: 1 });
    try {
      const id = await app.start(3);
      // The first waits for the thread to start; the others find the queue full.
      const answers = await Promise.all([1, 2, 3].map((n) => app.put(id, n, flatSnapshot(256 * 1024))));
      const statuses = answers.map((res) => res.statusCode).sort();
      expect(statuses[0]).toBe(200);
      expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
      const refused = answers.filter((res) => res.statusCode === 503);
      expect(refused.length).toBeGreaterThan(0);
      for (const res of refused) {
        expect(res.headers['retry-after']).toBe('5');
        expect(res.json().error.code).toBe('unavailable');
        expect(res.json().error.message).toContain('DOCUMENT_QUEUE');
      }
      expect((await app.stored(id)).length).toBe(answers.length - refused.length);
    } finally {
      await app.t.close();
    }
  });
});
