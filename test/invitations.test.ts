import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/core/clock';
import { createLogMailer, createSmtpMailer } from '../src/mail/mailer';
import { decodeBody, startSmtpServer, type TestSmtpServer } from './helpers/smtp';
import { createTestApp, sessionFrom, type TestApp, type TestSession, uniqueEmail } from './helpers/test-app';

const MEMBERS = '/v1/team/members';
const APP_URL = 'https://demos.example.test';
const PASSWORD = 'correct horse battery staple';
const DAY = 86_400_000;

describe('invitations by token', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  const clock = manualClock('2026-11-23T09:00:00.000Z');

  beforeAll(async () => {
    smtp = await startSmtpServer();
    const mailer = await createSmtpMailer(smtp.url, 'Demoshare <no-reply@demos.example.test>');
    t = await createTestApp({ mailer, smtp, clock, config: { APP_URL } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  /** Invites `email` and returns the token of the link in the e-mail that reached the SMTP server. */
  async function invite(admin: TestSession, email = uniqueEmail('invitee'), role = 'editor') {
    const sentBefore = smtp.messages.filter((m) => m.to.includes(email)).length;
    const res = await admin.inject({ method: 'POST', url: MEMBERS, payload: { email, role } });
    expect(res.statusCode).toBe(201);
    await smtp.waitFor(() => smtp.messages.filter((m) => m.to.includes(email)).length > sentBefore);
    const mails = smtp.messages.filter((m) => m.to.includes(email));
    const body = decodeBody(mails[mails.length - 1]!.raw);
    const token = new RegExp(`${APP_URL}/invite/([A-Za-z0-9_-]{43})`).exec(body)?.[1];
    expect(token).toBeDefined();
    return { email, token: token!, member: res.json().data, body };
  }

  const memberRow = async (admin: TestSession, id: string) =>
    (await admin.inject({ method: 'GET', url: MEMBERS })).json().data.find((m: { id: string }) => m.id === id);

  const signup = (email: string, token?: string) =>
    t.app.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email, password: PASSWORD, invitation_token: token } });

  it('signing up or in with the invited address but no token joins nothing (the takeover is closed)', async () => {
    const admin = await t.signUp();
    const { email, member } = await invite(admin);
    const res = await signup(email);
    expect(res.statusCode).toBe(201);
    const session = res.json().data;
    expect(session.workspace.id).not.toBe(admin.workspaceId);
    expect(session.workspaces.map((w: { id: string }) => w.id)).not.toContain(admin.workspaceId);
    const login = await t.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password: PASSWORD } });
    expect(login.statusCode).toBe(200);
    expect(login.json().data.workspaces).toHaveLength(1);
    const switched = await sessionFrom(t.app, email, login).inject({
      method: 'POST',
      url: '/v1/auth/workspace',
      payload: { workspace_id: admin.workspaceId },
    });
    expect(switched.statusCode).toBe(404);
    expect(await memberRow(admin, member.id)).toMatchObject({ status: 'invited', user_id: null, joined_at: null });
  });

  it('shows what the link offers, then joins through sign-up with it; the link works once', async () => {
    const admin = await t.signUp();
    await admin.inject({ method: 'GET', url: '/v1/auth/session' });
    const { email, token, member, body } = await invite(admin, uniqueEmail('newcomer'), 'viewer');
    expect(body).toContain(admin.email);
    expect(body).toMatch(/as a viewer/);

    const preview = await t.app.inject({ method: 'GET', url: `/v1/invitations/${token}` });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().data).toMatchObject({
      email,
      role: 'viewer',
      workspace: { id: admin.workspaceId },
      invited_by: { email: admin.email },
      expires_at: new Date(clock.now().getTime() + 7 * DAY).toISOString(),
    });

    const res = await signup(email, token);
    expect(res.statusCode).toBe(201);
    expect(res.json().data.workspace).toMatchObject({ id: admin.workspaceId, role: 'viewer' });
    const row = await memberRow(admin, member.id);
    expect(row).toMatchObject({ status: 'active', user_id: res.json().data.user.id, invitation: null });
    expect(row.joined_at).toBe(clock.now().toISOString());

    expect((await t.app.inject({ method: 'GET', url: `/v1/invitations/${token}` })).statusCode).toBe(404);
    const again = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email, password: PASSWORD, invitation_token: token },
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.code).toBe('not_found');
  });

  it('joins through sign-in for an existing account, and through accept for a signed-in one', async () => {
    const admin = await t.signUp();
    const existing = await t.signUp(uniqueEmail('existing'));
    const first = await invite(admin, existing.email);
    const login = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: existing.email, password: PASSWORD, invitation_token: first.token },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().data.workspace.id).toBe(admin.workspaceId);

    const other = await t.signUp();
    const signedIn = await t.signUp(uniqueEmail('signed-in'));
    const second = await invite(other, signedIn.email, 'admin');
    const accepted = await signedIn.inject({ method: 'POST', url: `/v1/invitations/${second.token}/accept` });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().data.workspace).toMatchObject({ id: other.workspaceId, role: 'admin' });
    const session = (await signedIn.inject({ method: 'GET', url: '/v1/auth/session' })).json().data;
    expect(session.workspace.id).toBe(other.workspaceId);
  });

  it('only the invited address can accept: 403, and the invitation stays pending', async () => {
    const admin = await t.signUp();
    const { token, member } = await invite(admin);
    const stranger = await t.signUp();
    const viaSession = await stranger.inject({ method: 'POST', url: `/v1/invitations/${token}/accept` });
    expect(viaSession.statusCode).toBe(403);
    expect(viaSession.json().error.message).toContain(member.email);
    const strangerEmail = uniqueEmail('stranger');
    const viaSignup = await signup(strangerEmail, token);
    expect(viaSignup.statusCode).toBe(403);
    // Nothing was created: the address is still free.
    expect((await signup(strangerEmail)).statusCode).toBe(201);
    const viaLogin = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: stranger.email, password: PASSWORD, invitation_token: token },
    });
    expect(viaLogin.statusCode).toBe(403);
    const wrongPassword = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: stranger.email, password: 'not the password', invitation_token: token },
    });
    expect(wrongPassword.statusCode).toBe(401);
    expect(await memberRow(admin, member.id)).toMatchObject({ status: 'invited', user_id: null });
    expect((await t.app.inject({ method: 'GET', url: `/v1/invitations/${token}` })).statusCode).toBe(200);
  });

  it('expires after seven days: 410 everywhere, nothing created, the row says so', async () => {
    const admin = await t.signUp();
    const { email, token, member } = await invite(admin);
    clock.advance(7 * DAY);
    try {
      const preview = await t.app.inject({ method: 'GET', url: `/v1/invitations/${token}` });
      expect(preview.statusCode).toBe(410);
      expect(preview.json().error.code).toBe('gone');
      expect((await signup(email, token)).statusCode).toBe(410);
      expect((await signup(email)).statusCode).toBe(201);
      expect((await memberRow(admin, member.id)).invitation).toMatchObject({ expired: true });
    } finally {
      clock.advance(-7 * DAY);
    }
  });

  it('resend issues a new link and kills the old one; revoke kills the link and the pending member', async () => {
    const admin = await t.signUp();
    const first = await invite(admin);
    clock.advance(DAY);
    const resent = await admin.inject({ method: 'POST', url: `${MEMBERS}/${first.member.id}/invitation` });
    expect(resent.statusCode).toBe(200);
    expect(resent.json().data).toMatchObject({ status: 'invited', invited_at: clock.now().toISOString() });
    expect(resent.json().data.invitation.expires_at).toBe(new Date(clock.now().getTime() + 7 * DAY).toISOString());
    const mails = smtp.messages.filter((m) => m.to.includes(first.email));
    expect(mails).toHaveLength(2);
    const newToken = /\/invite\/([A-Za-z0-9_-]{43})/.exec(decodeBody(mails[1]!.raw))?.[1];
    expect(newToken).toBeDefined();
    expect(newToken).not.toBe(first.token);
    expect((await t.app.inject({ method: 'GET', url: `/v1/invitations/${first.token}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/v1/invitations/${newToken}` })).statusCode).toBe(200);

    const revoked = await admin.inject({ method: 'DELETE', url: `${MEMBERS}/${first.member.id}/invitation` });
    expect(revoked.statusCode).toBe(204);
    expect(revoked.body).toBe('');
    expect((await t.app.inject({ method: 'GET', url: `/v1/invitations/${newToken}` })).statusCode).toBe(404);
    expect((await signup(first.email, newToken)).statusCode).toBe(404);
    expect(await memberRow(admin, first.member.id)).toBeUndefined();
    expect((await admin.inject({ method: 'DELETE', url: `${MEMBERS}/${first.member.id}/invitation` })).statusCode).toBe(404);
  });

  it('resend and revoke refuse a member who has joined (409), and another workspace’s member (404)', async () => {
    const admin = await t.signUp();
    const joined = await t.member(admin, 'editor');
    for (const method of ['POST', 'DELETE'] as const) {
      const res = await admin.inject({ method, url: `${MEMBERS}/${joined.memberId}/invitation` });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('conflict');
    }
    const stranger = await t.signUp();
    const pending = await invite(admin);
    expect((await stranger.inject({ method: 'POST', url: `${MEMBERS}/${pending.member.id}/invitation` })).statusCode).toBe(404);
    expect((await stranger.inject({ method: 'DELETE', url: `${MEMBERS}/${pending.member.id}/invitation` })).statusCode).toBe(404);
    expect(await memberRow(admin, pending.member.id)).toMatchObject({ status: 'invited' });
  });

  it('two accepts of one link at once: exactly one joins', async () => {
    const admin = await t.signUp();
    const invitee = await t.signUp(uniqueEmail('racer'));
    const { token } = await invite(admin, invitee.email);
    const login = () =>
      t.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: invitee.email, password: PASSWORD } });
    const sessions = [sessionFrom(t.app, invitee.email, await login()), sessionFrom(t.app, invitee.email, await login())];
    const results = await Promise.all(sessions.map((s) => s.inject({ method: 'POST', url: `/v1/invitations/${token}/accept` })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 404]);
  });

  it('refuses malformed tokens with 400 and unknown ones with 404', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v1/invitations/short' })).statusCode).toBe(400);
    const unknown = 'A'.repeat(43);
    expect((await t.app.inject({ method: 'GET', url: `/v1/invitations/${unknown}` })).statusCode).toBe(404);
    const res = await signup(uniqueEmail(), 'not a token');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain('invitation_token');
  });

  it('names the workspace and the inviter in both parts of the e-mail, escaped in the HTML', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      payload: { email: uniqueEmail('namer'), password: PASSWORD, name: 'Ada <Lovelace>', workspace_name: 'Acme & <Co>' },
    });
    const admin = sessionFrom(t.app, res.json().data.user.email, res);
    const { email } = await invite(admin);
    const raw = decodeBody(smtp.messages.filter((m) => m.to.includes(email))[0]!.raw);
    expect(raw).toContain('Ada <Lovelace> (');
    expect(raw).toContain('Acme & <Co>');
    expect(raw).toContain('Content-Type: text/html');
    expect(raw).toContain('Ada &lt;Lovelace&gt;');
    expect(raw).toContain('Acme &amp; &lt;Co&gt;');
    expect(raw).not.toContain('<strong>Acme & <Co></strong>');
  });
});

describe('invitations without a working SMTP server', () => {
  it('without SMTP the link is returned to the admin (and logged); it works', async () => {
    const logged: Array<Record<string, unknown>> = [];
    const t = await createTestApp({ mailer: createLogMailer({ info: (entry: Record<string, unknown>) => logged.push(entry) }) });
    try {
      const admin = await t.signUp();
      const email = uniqueEmail('nomail');
      const res = await admin.inject({ method: 'POST', url: MEMBERS, payload: { email, role: 'editor' } });
      expect(res.statusCode).toBe(201);
      const invitation = res.json().data.invitation;
      expect(invitation).toMatchObject({ email_status: 'not_configured', email_error: null });
      expect(invitation.url).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
      expect(logged.some((entry) => entry.to === email && String(entry.text).includes(invitation.url))).toBe(true);
      // The list never shows a link again: only its digest is stored.
      const listed = (await admin.inject({ method: 'GET', url: MEMBERS })).json().data.find((m: { email: string }) => m.email === email);
      expect(listed.invitation.url).toBeUndefined();
      const token = invitation.url.split('/invite/')[1];
      const joined = await t.app.inject({
        method: 'POST',
        url: '/v1/auth/signup',
        payload: { email, password: PASSWORD, invitation_token: token },
      });
      expect(joined.json().data.workspace.id).toBe(admin.workspaceId);
    } finally {
      await t.close();
    }
  });

  it('a failed e-mail keeps the invitation, shows the failure on the member row, and resend tries again', async () => {
    // Nothing listens on port 9 of the loopback address here: the connection is refused at once.
    const t = await createTestApp({ mailer: await createSmtpMailer('smtp://127.0.0.1:9', 'Demoshare <no-reply@localhost>') });
    try {
      const admin = await t.signUp();
      const res = await admin.inject({ method: 'POST', url: MEMBERS, payload: { email: uniqueEmail('bounce'), role: 'viewer' } });
      expect(res.statusCode).toBe(201);
      const member = res.json().data;
      expect(member.invitation.email_status).toBe('failed');
      expect(member.invitation.email_error).toMatch(/ECONNREFUSED|connect/i);
      // SMTP is configured, so the link is not handed out: only the e-mail may carry it.
      expect(member.invitation.url).toBeUndefined();
      const listed = (await admin.inject({ method: 'GET', url: MEMBERS })).json().data.find((m: { id: string }) => m.id === member.id);
      expect(listed.invitation.email_status).toBe('failed');
      const resent = await admin.inject({ method: 'POST', url: `${MEMBERS}/${member.id}/invitation` });
      expect(resent.statusCode).toBe(200);
      expect(resent.json().data.invitation.email_status).toBe('failed');
    } finally {
      await t.close();
    }
  });
});
