import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from '../src/mail/mailer';
import { cleanUpWebhookLog } from '../src/webhooks/webhooks.jobs';
import { decodeBody, startSmtpServer, type TestSmtpServer } from './helpers/smtp';
import { createTestApp, type TestApp, type TestSession } from './helpers/test-app';
import { eventually, WebhookReceiver } from './helpers/webhook-receiver';

describe('auto-disable after WEBHOOK_DISABLE_AFTER of failures, with e-mail to the admins', () => {
  let t: TestApp;
  let admin: TestSession;
  let receiver: WebhookReceiver;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    smtp = await startSmtpServer();
    t = await createTestApp({
      jobs: true,
      mailer: await createSmtpMailer(smtp.url, 'Demoshare <no-reply@localhost>'),
      config: {
        ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32',
        WEBHOOK_RETRY_DELAYS: [400, 400, 400, 400, 400],
        WEBHOOK_DISABLE_AFTER: 1_000,
        WEBHOOK_POLL_INTERVAL: 100,
      },
    });
    admin = await t.signUp();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await smtp?.close();
  });

  it('disables a webhook whose deliveries all failed for the configured time, tells the admins, and re-enables cleanly', async () => {
    receiver.respond(() => ({ status: 500 }));
    const hook = (
      await admin.inject({ method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.url}/dead`, events: ['webhook.test'] } })
    ).json().data;
    await admin.inject({ method: 'POST', url: `/v1/webhooks/${hook.id}/test` });

    const disabled = await eventually(async () => {
      const list = (await admin.inject({ method: 'GET', url: '/v1/webhooks' })).json().data;
      const found = list.find((w: { id: string }) => w.id === hook.id);
      return found.active ? undefined : found;
    });
    expect(disabled).toMatchObject({ active: false, disabled_reason: 'failing' });
    // The first failure starts the clock; only a later one can find it has run for a second.
    expect(disabled.consecutive_failures).toBeGreaterThanOrEqual(2);

    const isNotice = (m: { raw: string }) => m.raw.includes('Subject: A Demoshare webhook was disabled');
    const mail = await smtp.waitFor(isNotice, 10_000);
    expect(mail.to).toEqual([admin.email]);
    expect(decodeBody(mail.raw)).toContain(hook.id);
    expect(decodeBody(mail.raw)).toContain(`${receiver.url}/dead`);
    expect(decodeBody(mail.raw)).not.toContain(hook.secret);
    // One e-mail per admin, not one per failing attempt.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(smtp.messages.filter(isNotice)).toHaveLength(1);

    const again = await admin.inject({ method: 'PATCH', url: `/v1/webhooks/${hook.id}`, payload: { active: true } });
    expect(again.json().data).toMatchObject({ active: true, consecutive_failures: 0, disabled_at: null });
    receiver.respond(() => ({ status: 200 }));
    const queued = (await admin.inject({ method: 'POST', url: `/v1/webhooks/${hook.id}/test` })).json().data;
    await eventually(async () => {
      const d = (await admin.inject({ method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries/${queued.id}` })).json().data;
      return d.status === 'succeeded';
    });
  });

  it('cleans finished deliveries older than WEBHOOK_LOG_RETENTION and keeps the rest', async () => {
    const hook = (
      await admin.inject({ method: 'POST', url: '/v1/webhooks', payload: { url: `${receiver.url}/kept`, events: ['webhook.test'] } })
    ).json().data;
    receiver.respond(() => ({ status: 200 }));
    await admin.inject({ method: 'POST', url: `/v1/webhooks/${hook.id}/test` });
    const log = () => admin.inject({ method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries` });
    await eventually(async () => (await log()).json().data[0]?.status === 'succeeded');
    await cleanUpWebhookLog({ ...t.ctx, config: { ...t.ctx.config, WEBHOOK_LOG_RETENTION: 3_600_000 } });
    expect((await log()).json().meta.total).toBe(1);
    await cleanUpWebhookLog({ ...t.ctx, clock: { now: () => new Date(Date.now() + 2 * 3_600_000) }, config: { ...t.ctx.config, WEBHOOK_LOG_RETENTION: 3_600_000 } });
    expect((await log()).json().meta.total).toBe(0);
  });
});
