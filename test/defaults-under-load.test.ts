import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, type RunningServer, startCli } from './helpers/cli';
import { engine } from './helpers/database';
import { freePort } from './helpers/free-port';
import { type ForbiddenServer, startForbiddenServer, startTestSite, type TestSite } from './helpers/site-server';
import { ensurePlayerBuilt } from './helpers/web-build';

/**
 * A new user's first session on `demoshare start` as the README starts it, on a machine whose two cores
 * are both taken by other work: every answer the user and the viewer get must be one they asked for. The
 * defaults are what is under test, so the server gets none of the test helpers' settings, only PORT and
 * DATA_DIR (and the one override written beside it).
 */
// The child runs the embedded database whatever the suite's engine: running it again on PostgreSQL's turn
// would repeat the same thing.
describe.skipIf(engine === 'postgres')('the defaults of `demoshare start` on a loaded machine', { timeout: 600_000 }, () => {
  const busy: ChildProcess[] = [];
  let dataDir: string;
  let server: RunningServer | undefined;
  let site: TestSite;
  let forbidden: ForbiddenServer;
  let base: string;
  /** Every answer the server gave, in order. */
  const answers: Array<{ method: string; path: string; status: number }> = [];

  beforeAll(async () => {
    await ensurePlayerBuilt();
    forbidden = await startForbiddenServer();
    site = await startTestSite(forbidden);
    // Two processes that never yield, one per core of the machines this runs on (and CI's).
    for (let i = 0; i < 2; i++) busy.push(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
    dataDir = mkdtempSync(path.join(tmpdir(), 'demoshare-defaults-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await startCli(
      'start',
      cleanEnv({
        PORT: String(port),
        DATA_DIR: dataDir,
        // The demo is captured from the test site on this machine, which the address policy refuses by
        // default (it refuses every private address a server-side fetch could be pointed at).
        ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32',
      }),
    );
  });
  afterAll(async () => {
    for (const child of busy) child.kill('SIGKILL');
    await server?.stop();
    await site?.close();
    await forbidden?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const cookies = new Map<string, string>();
  let csrf = '';
  /** A request as the web app (or the player) sends it: the cookies so far, CSRF on unsafe methods. */
  async function call(method: string, url: string, body?: unknown, jar = cookies) {
    const pathname = url.startsWith('http') ? url.slice(new URL(url).origin.length) : url;
    const headers: Record<string, string> = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && jar === cookies && csrf) headers['x-csrf-token'] = csrf;
    const res = await fetch(`${base}${pathname}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    answers.push({ method, path: pathname, status: res.status });
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text) };
  }

  it('signs up, generates a demo from a site, edits, publishes, shares and plays it: no 5xx', async () => {
    const signUp = await call('POST', '/v1/auth/signup', { email: 'first.user@example.com', password: 'correct horse battery staple' });
    expect(signUp.status, signUp.text).toBe(201);
    csrf = cookies.get('ds_csrf')!;
    expect(csrf).toBeTruthy();

    const created = await call('POST', '/v1/demos', { source_url: `${site.origin}/`, type: 'interactive', generate_with_ai: true });
    expect(created.status, created.text).toBe(201);
    const demoId = created.json().data.id as string;
    // The web app polls the demo while it generates.
    let demo: { status: string; generation: { status: string; error?: string | null }; steps: Array<{ id: string; title: string }> };
    for (;;) {
      const res = await call('GET', `/v1/demos/${demoId}`);
      expect(res.status, res.text).toBe(200);
      demo = res.json().data;
      if (demo.generation.status !== 'queued' && demo.generation.status !== 'running') break;
      await sleep(1_000);
    }
    expect(demo.generation, JSON.stringify(demo.generation)).toMatchObject({ status: 'succeeded' });
    expect(demo.steps.length).toBeGreaterThan(0);

    const step = demo.steps[0]!;
    const edited = await call('PATCH', `/v1/demos/${demoId}/steps/${step.id}`, { title: 'Start here', description: 'The home page.' });
    expect(edited.status, edited.text).toBe(200);
    const published = await call('PATCH', `/v1/demos/${demoId}`, { status: 'published' });
    expect(published.status, published.text).toBe(200);
    const share = await call('POST', `/v1/demos/${demoId}/shares`, {});
    expect(share.status, share.text).toBe(201);
    const token = (share.json().data.url as string).split('/s/')[1]!;

    // A viewer with no account: the page, then what its player asks for.
    const viewer = new Map<string, string>();
    const page = await call('GET', `/s/${token}`, undefined, viewer);
    expect(page.status).toBe(200);
    for (const [, src] of page.text.matchAll(/<(?:script|link)[^>]+(?:src|href)="(\/player\/[^"]+)"/g)) {
      expect((await call('GET', src!, undefined, viewer)).status).toBe(200);
    }
    expect((await call('GET', `/v1/viewer/${token}`, undefined, viewer)).status).toBe(200);
    const playable = await call('GET', `/v1/viewer/${token}/demo`, undefined, viewer);
    expect(playable.status, playable.text).toBe(200);
    const steps = playable.json().data.steps as Array<{ title: string; image_url?: string | null; html_url?: string | null }>;
    expect(steps[0]!.title).toBe('Start here');
    for (const s of steps) {
      for (const asset of [s.image_url, s.html_url]) if (asset) expect((await call('GET', asset, undefined, viewer)).status).toBe(200);
    }
    const event = (type: string, extra: object = {}) => ({ id: randomUUID(), type, ...extra });
    const events = [
      event('view_started'),
      ...steps.slice(1).map((_, i) => event('step_reached', { step_number: i + 2, seconds_on_previous: 2 })),
      event('completed', { seconds_on_previous: 2 }),
    ];
    for (const e of events) expect((await call('POST', `/v1/viewer/${token}/events`, { events: [e] }, viewer)).status).toBe(202);

    // The owner sees the view.
    const views = await call('GET', `/v1/demos/${demoId}/views`);
    expect(views.status, views.text).toBe(200);

    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
  });
});
