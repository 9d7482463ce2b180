// The stale-demo check end to end: a local site captured, changed (a text edit, a moved button, a removed element), checked again.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main';
import { queueDueChecks } from '../src/staleness/staleness.jobs';
import { AddressPolicy } from '../src/core/net/address-policy';
import { SafeFetch } from '../src/core/net/safe-fetch';
import { createGenerator, type Generator } from '../src/generation';
import { createSmtpMailer } from '../src/mail/mailer';
import { CHROMIUM } from './helpers/browser';
import { testDocumentPool } from './helpers/documents';
import { decodeBody, startSmtpServer, type TestSmtpServer } from './helpers/smtp';
import { createTestApp, type TestApp, type TestSession } from './helpers/test-app';
import { eventually, WebhookReceiver } from './helpers/webhook-receiver';

/** What the site shows; the test changes it between checks. */
const site = { title: 'Welcome to Acme', buttonLeft: 0, promo: true };

function home() {
  return `<!doctype html><html><head><title>Acme</title><style>
    body { font: 16px/1.4 sans-serif; margin: 0; } main { padding: 40px; }
    #start { margin-left: ${site.buttonLeft}px; padding: 12px 24px; font-size: 18px; }
    #promo { position: absolute; top: 620px; left: 40px; width: 400px; }
  </style></head><body><main>
    <h1 id="title">${site.title}</h1>
    <p>Acme sends your invoices and chases late payers for you, every day of the week.</p>
    <button id="start">Start trial</button>
    <h2 id="features">Features that save hours</h2>
    <p>Reminders, receipts and reports, all in one place for your whole team.</p>
    ${site.promo ? '<aside id="promo"><h3 id="promo-title">Half price in December</h3><p>For new teams only.</p></aside>' : ''}
  </main></body></html>`;
}

const LOGIN = `<!doctype html><html><head><title>Sign in</title></head><body><form id="login"><h1>Sign in</h1>
  <label>E-mail <input name="email" type="email"></label><label>Password <input name="password" type="password"></label>
  <button>Sign in</button></form></body></html>`;

describe.skipIf(!CHROMIUM.path)('stale-demo check', () => {
  let t: TestApp;
  let server: Server;
  let origin: string;
  let admin: TestSession;
  let receiver: WebhookReceiver;
  let smtp: TestSmtpServer;
  let generator: Generator;
  const documents = testDocumentPool();

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(home());
      if (path === '/app/reports') return res.writeHead(302, { location: '/login' }).end();
      if (path === '/login') return res.writeHead(200, { 'content-type': 'text/html' }).end(LOGIN);
      res.writeHead(404).end('not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    receiver = await new WebhookReceiver().start();
    smtp = await startSmtpServer();
    generator = createGenerator({ net: new SafeFetch(AddressPolicy.fromList('127.0.0.1/32')), documents, chromiumPath: CHROMIUM.path });
    t = await createTestApp({
      generator: (options) => generator.generate(options),
      jobs: true,
      smtp,
      mailer: await createSmtpMailer(smtp.url, 'Demoshare <no-reply@demos.example.test>'),
      config: { CHROMIUM_PATH: CHROMIUM.path, ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32', WEBHOOK_POLL_INTERVAL: 200 },
    });
    admin = await t.signUp();
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await smtp?.close();
    await generator?.close();
    await documents.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function makeDemo(steps: Array<{ path: string; selector: string }>) {
    const created = await admin.inject({ method: 'POST', url: '/v1/demos', payload: { title: 'Acme tour', source_url: `${origin}/` } });
    expect(created.statusCode, created.body).toBe(201);
    const demoId: string = created.json().data.id;
    const ids: string[] = [];
    for (const step of steps) {
      const added = await admin.inject({ method: 'POST', url: `/v1/demos/${demoId}/steps`, payload: { title: step.selector, page_url: `${origin}${step.path}` } });
      expect(added.statusCode, added.body).toBe(201);
      const stepId: string = added.json().data.id;
      const hotspot = await admin.inject({
        method: 'POST',
        url: `/v1/demos/${demoId}/steps/${stepId}/hotspots`,
        payload: { x: 0.1, y: 0.1, width: 0.2, height: 0.1, selector: step.selector, label: `Look at ${step.selector}` },
      });
      expect(hotspot.statusCode, hotspot.body).toBe(201);
      ids.push(stepId);
    }
    return { demoId, ids };
  }

  async function check(demoId: string) {
    const started = await admin.inject({ method: 'POST', url: `/v1/demos/${demoId}/checks` });
    expect(started.statusCode, started.body).toBe(202);
    const id: string = started.json().data.id;
    return eventually(async () => {
      const got = await admin.inject({ method: 'GET', url: `/v1/demos/${demoId}/checks/${id}` });
      const data = got.json().data;
      return ['succeeded', 'failed'].includes(data.status) && data;
    }, 60_000, 'the check to finish');
  }

  it('flags exactly the steps whose page changed, with the reasons, after "replace" made them from a first capture', async () => {
    const { demoId, ids } = await makeDemo([
      { path: '/', selector: '#title' },
      { path: '/', selector: '#start' },
      { path: '/', selector: '#promo-title' },
      { path: '/', selector: '#features' },
    ]);
    const hook = await admin.inject({ method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.url}/stale`, events: ['demo.stale'] } });
    expect(hook.statusCode, hook.body).toBe(201);

    // The steps have no screenshot yet: every target is found, and each step can take the capture.
    const first = await check(demoId);
    expect(first.status, first.error).toBe('succeeded');
    expect(first.capture_mode).toBe('chromium');
    expect(first.steps.map((s: { status: string; replaceable: boolean }) => [s.status, s.replaceable])).toEqual(Array(4).fill(['ok', true]));
    const shot = await admin.inject({ method: 'GET', url: `/v1/demos/${demoId}/checks/${first.id}/steps/${ids[0]}/capture` });
    expect(shot.statusCode).toBe(200);
    expect(shot.headers['content-type']).toBe('image/png');
    expect(shot.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    for (const stepId of ids) {
      const replaced = await admin.inject({ method: 'POST', url: `/v1/demos/${demoId}/checks/${first.id}/steps/${stepId}/replace` });
      expect(replaced.statusCode, replaced.body).toBe(200);
    }
    const again = await admin.inject({ method: 'POST', url: `/v1/demos/${demoId}/checks/${first.id}/steps/${ids[0]}/replace` });
    expect(again.statusCode).toBe(409);
    expect((await admin.inject({ method: 'GET', url: `/v1/demos/${demoId}/checks/${first.id}/steps/${ids[0]}/capture` })).statusCode).toBe(404);
    const demo = (await admin.inject({ method: 'GET', url: `/v1/demos/${demoId}` })).json().data;
    expect(demo.steps.every((s: { image_url: string | null }) => s.image_url)).toBe(true);
    expect(demo.steps[0].title).toBe('#title');
    expect(demo.hotspots.find((h: { step_number: number }) => h.step_number === 1).label).toBe('Look at #title');

    const clean = await check(demoId);
    expect(clean.steps.map((s: { status: string; detail: string }) => [s.status, s.detail])).toEqual(Array(4).fill(['ok', 'As it was.']));
    expect(clean.drift).toBe(false);

    site.title = 'Welcome to Acme Cloud';
    site.buttonLeft = 300;
    site.promo = false;
    const stale = await check(demoId);
    const [title, start, promo, features] = stale.steps;
    expect(title.status).toBe('changed');
    expect(title.reasons).toContain('text_changed');
    expect([title.text_before, title.text_after]).toEqual(['Welcome to Acme', 'Welcome to Acme Cloud']);
    expect(start.status).toBe('changed');
    expect(start.reasons).toEqual(['box_moved']);
    expect(start.box_shift_px).toBeGreaterThanOrEqual(290);
    expect(promo.status).toBe('missing');
    expect(promo.reasons).toEqual(['target_missing']);
    expect(features.status).toBe('ok');
    expect(stale.drift).toBe(true);
    expect(stale.summary).toEqual({ checked: 4, ok: 1, changed: 2, missing: 1, unreachable: 0 });

    const [delivery] = await receiver.waitFor((r) => r.some((x) => JSON.parse(x.body.toString()).data?.check_id === stale.id));
    const event = JSON.parse(delivery!.body.toString());
    expect(event.event).toBe('demo.stale');
    expect(event.data.stale_steps).toBe(3);
    expect(event.data.steps.map((s: { step_id: string }) => s.step_id)).toEqual(ids.slice(0, 3));

    // The CLI, over HTTP as a CI job runs it: 1 on drift, 0 once the site is back as the demo shows it, 2 on an error.
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const env = { DEMOSHARE_URL: address, DEMOSHARE_TOKEN: await t.apiKey(['demos:read', 'demos:write'], admin) };
    const cli = async (args: string[]) => {
      const lines: string[] = [];
      const code = await main(['demos', 'check', ...args], env, { stdout: (s) => lines.push(s), stderr: (s) => lines.push(s) });
      return { code, text: lines.join('\n') };
    };
    const drifted = await cli([demoId]);
    expect(drifted.code, drifted.text).toBe(1);
    expect(drifted.text).toMatch(/^1 +changed +text_changed/m);
    expect(drifted.text).toMatch(/^3 +missing +target_missing/m);
    expect(drifted.text).toContain('Drift: 2 changed, 1 missing, 0 unreachable of 4 steps');
    Object.assign(site, { title: 'Welcome to Acme', buttonLeft: 0, promo: true });
    const back = await cli([demoId, '--timeout', '60s']);
    expect(back.code, back.text).toBe(0);
    expect(back.text).toContain('No drift: 4 steps match their pages');
    const wrong = await cli(['demo_01jd3k7q9x8v2m4n6p0r5s7t9w']);
    expect(wrong.code).toBe(2);
    expect(wrong.text).toContain('Demo not found (404 not_found)');
  }, 180_000);

  it('says login_required for a page behind a sign-in; a schedule queues a check whose drift e-mails the owner', async () => {
    const { demoId } = await makeDemo([{ path: '/app/reports', selector: '#report-table' }]);
    const result = await check(demoId);
    expect(result.steps[0]).toMatchObject({ status: 'unreachable', reasons: ['login_required'], replaceable: false });

    const set = await admin.inject({ method: 'PUT', url: `/v1/demos/${demoId}/check-schedule`, payload: { interval: 'daily' } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.interval).toBe('daily');
    const bad = await admin.inject({ method: 'PUT', url: `/v1/demos/${demoId}/check-schedule`, payload: { interval: 'hourly' } });
    expect(bad.statusCode).toBe(400);
    expect(await queueDueChecks({ ...t.ctx, clock: { now: () => new Date(Date.now() + 25 * 3600_000) } as typeof t.ctx.clock })).toBe(1);
    const list = (await admin.inject({ method: 'GET', url: `/v1/demos/${demoId}/checks` })).json();
    expect(list.data[0].trigger).toBe('schedule');
    expect(list.meta.total).toBe(2);
    const mail = await smtp.waitFor((m) => m.to.includes(admin.email) && decodeBody(m.raw).includes('The scheduled check of'), 60_000);
    const text = decodeBody(mail.raw);
    expect(text).toContain('Step 1: the page asks for a sign-in.');
    expect(text).toContain(`/demos/${demoId}`);
  }, 120_000);

  it('finds a freshly generated demo as it was (boxes and pictures against the screenshots generation took), then its changed heading', async () => {
    Object.assign(site, { title: 'Welcome to Acme', buttonLeft: 0, promo: true });
    const created = await admin.inject({ method: 'POST', url: '/v1/demos', payload: { title: 'Generated', source_url: `${origin}/`, generate_with_ai: true } });
    expect(created.statusCode, created.body).toBe(201);
    const demoId: string = created.json().data.id;
    const demo = await eventually(async () => {
      const got = (await admin.inject({ method: 'GET', url: `/v1/demos/${demoId}` })).json().data;
      return got.status !== 'generating' && got;
    }, 60_000, 'the generation');
    expect(demo.generation.capture_mode).toBe('chromium');
    const first = await check(demoId);
    expect(first.steps.length).toBe(demo.steps.length);
    expect(first.steps.map((s: { status: string; box_shift_px: number; image_diff: number }) => [s.status, s.box_shift_px, s.image_diff])).toEqual(
      Array(demo.steps.length).fill(['ok', 0, 0]),
    );
    const titled = first.steps.findIndex((s: { selector: string }) => s.selector === '#title');
    expect(titled).toBeGreaterThanOrEqual(0);

    // The first check kept each step's baseline, so this one also reads the text; the picture shows it too.
    site.title = 'Welcome to Acme Cloud';
    const changed = await check(demoId);
    site.title = 'Welcome to Acme';
    expect(changed.steps[titled]).toMatchObject({ status: 'changed', reasons: ['text_changed', 'image_changed'] });
    expect(changed.steps.filter((s: { status: string }) => s.status !== 'ok')).toHaveLength(1);
  }, 120_000);
});
