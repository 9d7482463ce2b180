import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from '../src/mail/mailer';
import { decodeBody, startSmtpServer, type TestSmtpServer } from './helpers/smtp';
import { bearer, createTestApp, type TestApp, uniqueEmail } from './helpers/test-app';

const MEMBERS = '/v1/team/members';
const APP_URL = 'https://demos.example.test';

describe('team', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    const mailer = await createSmtpMailer(smtp.url, 'Demoshare <no-reply@demos.example.test>');
    t = await createTestApp({ mailer, smtp, config: { APP_URL } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('lists the workspace creator as its only member, an active admin', async () => {
    const admin = await t.signUp();
    const res = await admin.inject({ method: 'GET', url: MEMBERS });
    expect(res.statusCode).toBe(200);
    expect(res.json().meta).toMatchObject({ total: 1, page: 1, per_page: 20 });
    expect(res.json().data[0]).toMatchObject({
      id: admin.memberId,
      email: admin.email,
      role: 'admin',
      status: 'active',
      user_id: admin.userId,
      invited_by: null,
    });
  });

  it('invites by e-mail: 201, an invited member, and a real e-mail with a single-use link', async () => {
    const admin = await t.signUp();
    const email = uniqueEmail('Invitee').replace('invitee', 'Invitee');
    const res = await admin.inject({ method: 'POST', url: MEMBERS, payload: { email: ` ${email} `.trim(), role: 'editor' } });
    expect(res.statusCode).toBe(201);
    const member = res.json().data;
    expect(member).toMatchObject({
      email: email.toLowerCase(),
      role: 'editor',
      status: 'invited',
      user_id: null,
      name: null,
      invited_by: admin.memberId,
      joined_at: null,
      invitation: { expired: false, email_status: 'sent', email_error: null },
    });
    expect(member.id).toMatch(/^mem_[0-9a-z]{26}$/);
    // E-mailed links are never shown to the admin.
    expect(member.invitation.url).toBeUndefined();

    const mail = await smtp.waitFor((m) => m.to.includes(email.toLowerCase()));
    expect(mail.to).toEqual([email.toLowerCase()]);
    expect(mail.from).toBe('no-reply@demos.example.test');
    const body = decodeBody(mail.raw);
    expect(body).toMatch(new RegExp(`${APP_URL}/invite/[A-Za-z0-9_-]{43}`));
    expect(body).not.toContain('/signup?email=');
    expect(body).toMatch(/as an editor/);

    const list = await admin.inject({ method: 'GET', url: MEMBERS });
    expect(list.json().meta.total).toBe(2);
  });

  it('refuses to invite the same address twice (409) and sends no second mail', async () => {
    const admin = await t.signUp();
    const email = uniqueEmail('twice');
    expect((await admin.inject({ method: 'POST', url: MEMBERS, payload: { email, role: 'viewer' } })).statusCode).toBe(201);
    await smtp.waitFor((m) => m.to.includes(email));
    const again = await admin.inject({ method: 'POST', url: MEMBERS, payload: { email: email.toUpperCase(), role: 'admin' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('conflict');
    expect(smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(1);
    const self = await admin.inject({ method: 'POST', url: MEMBERS, payload: { email: admin.email, role: 'viewer' } });
    expect(self.statusCode).toBe(409);
  });

  it.each([
    [{ email: 'not-an-email', role: 'editor' }, 'email'],
    [{ email: 'a@example.com', role: 'owner' }, 'role'],
    [{ email: 'a@example.com' }, 'role'],
    [{ role: 'editor' }, 'email'],
    [{ email: 'a@example.com', role: 'editor', status: 'active' }, 'status'],
  ])('refuses the invitation %j with 400 naming %s and changes nothing', async (payload, field) => {
    const admin = await t.signUp();
    const res = await admin.inject({ method: 'POST', url: MEMBERS, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect((await admin.inject({ method: 'GET', url: MEMBERS })).json().meta.total).toBe(1);
  });

  it('accepts the invitation on sign-up through its link: the invitee is an active member of both workspaces', async () => {
    const admin = await t.signUp();
    const viewer = await t.member(admin, 'viewer');
    const list = (await admin.inject({ method: 'GET', url: MEMBERS })).json();
    expect(list.meta.total).toBe(2);
    expect(list.data.find((m: { id: string }) => m.id === viewer.memberId)).toMatchObject({
      role: 'viewer',
      status: 'active',
      user_id: viewer.userId,
      invitation: null,
    });
    const session = (await viewer.inject({ method: 'GET', url: '/v1/auth/session' })).json().data;
    expect(session.workspace).toMatchObject({ id: admin.workspaceId, role: 'viewer' });
    expect(session.workspaces.map((w: { id: string }) => w.id)).toContain(admin.workspaceId);
    expect(session.workspaces).toHaveLength(2);
  });

  it('changes a role (200) and keeps at least one admin (409 on demoting or removing the last)', async () => {
    const admin = await t.signUp();
    const demote = await admin.inject({ method: 'PATCH', url: `${MEMBERS}/${admin.memberId}`, payload: { role: 'editor' } });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().error.code).toBe('conflict');
    const remove = await admin.inject({ method: 'DELETE', url: `${MEMBERS}/${admin.memberId}` });
    expect(remove.statusCode).toBe(409);

    const other = await t.member(admin, 'editor');
    const promoted = await admin.inject({ method: 'PATCH', url: `${MEMBERS}/${other.memberId}`, payload: { role: 'admin' } });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json().data).toMatchObject({ id: other.memberId, role: 'admin', status: 'active' });
    // Now there are two admins, so the first may step down.
    const stepDown = await admin.inject({ method: 'PATCH', url: `${MEMBERS}/${admin.memberId}`, payload: { role: 'viewer' } });
    expect(stepDown.statusCode).toBe(200);
    const last = await other.inject({ method: 'PATCH', url: `${MEMBERS}/${other.memberId}`, payload: { role: 'editor' } });
    expect(last.statusCode).toBe(409);
    const roles = (await other.inject({ method: 'GET', url: MEMBERS })).json().data.map((m: { role: string }) => m.role);
    expect(roles.sort()).toEqual(['admin', 'viewer']);
  });

  it('answers 404 for another workspace’s member and 400 for a malformed id, changing nothing', async () => {
    const a = await t.signUp();
    const b = await t.signUp();
    const bMember = await t.member(b, 'editor');
    for (const res of [
      await a.inject({ method: 'PATCH', url: `${MEMBERS}/${bMember.memberId}`, payload: { role: 'viewer' } }),
      await a.inject({ method: 'DELETE', url: `${MEMBERS}/${bMember.memberId}` }),
      await a.inject({ method: 'PATCH', url: `${MEMBERS}/mem_01jd3k7q9x8v2m4n6p0r5s7t9w`, payload: { role: 'viewer' } }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    const bad = await a.inject({ method: 'DELETE', url: `${MEMBERS}/usr_01jd3k7q9x8v2m4n6p0r5s7t9w` });
    expect(bad.statusCode).toBe(400);
    const theirs = (await b.inject({ method: 'GET', url: MEMBERS })).json().data;
    expect(theirs.find((m: { id: string }) => m.id === bMember.memberId).role).toBe('editor');
  });

  it('refuses unknown fields on PATCH (400) and changes nothing', async () => {
    const admin = await t.signUp();
    const other = await t.member(admin, 'viewer');
    const res = await admin.inject({
      method: 'PATCH',
      url: `${MEMBERS}/${other.memberId}`,
      payload: { role: 'admin', email: 'x@example.com' },
    });
    expect(res.statusCode).toBe(400);
    const row = (await admin.inject({ method: 'GET', url: MEMBERS })).json().data.find((m: { id: string }) => m.id === other.memberId);
    expect(row).toMatchObject({ role: 'viewer', email: other.email });
  });

  it('removes a member with 204 and no body; their key and session die at once', async () => {
    const admin = await t.signUp();
    const editor = await t.member(admin, 'editor');
    const key = await t.apiKey('all', editor);
    expect((await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) })).statusCode).toBe(200);
    const res = await admin.inject({ method: 'DELETE', url: `${MEMBERS}/${editor.memberId}` });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) })).statusCode).toBe(401);
    expect((await editor.inject({ method: 'GET', url: MEMBERS })).statusCode).toBe(401);
    expect((await admin.inject({ method: 'GET', url: MEMBERS })).json().meta.total).toBe(1);
    expect((await admin.inject({ method: 'DELETE', url: `${MEMBERS}/${editor.memberId}` })).statusCode).toBe(404);
  });
});

describe('roles: effective rights are scopes ∩ role', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  for (const role of ['viewer', 'editor'] as const) {
    it(`a ${role}'s key with every scope reads the team but cannot invite, re-role or remove`, async () => {
      const admin = await t.signUp();
      const member = await t.member(admin, role);
      const key = await t.apiKey('all', member);
      const headers = bearer(key);
      const list = await t.app.inject({ method: 'GET', url: MEMBERS, headers });
      expect(list.statusCode).toBe(200);
      expect(list.json().meta.total).toBe(2);
      const attempts = [
        await t.app.inject({ method: 'POST', url: MEMBERS, headers, payload: { email: uniqueEmail(), role: 'admin' } }),
        await t.app.inject({ method: 'PATCH', url: `${MEMBERS}/${member.memberId}`, headers, payload: { role: 'admin' } }),
        await t.app.inject({ method: 'PATCH', url: `${MEMBERS}/${admin.memberId}`, headers, payload: { role: 'viewer' } }),
        await t.app.inject({ method: 'DELETE', url: `${MEMBERS}/${admin.memberId}`, headers }),
        // The same through the web session.
        await member.inject({ method: 'POST', url: MEMBERS, payload: { email: uniqueEmail(), role: 'editor' } }),
        await member.inject({ method: 'PATCH', url: `${MEMBERS}/${member.memberId}`, payload: { role: 'admin' } }),
      ];
      for (const res of attempts) {
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('forbidden');
        expect(res.json().error.message).toContain(role);
      }
      const after = (await admin.inject({ method: 'GET', url: MEMBERS })).json();
      expect(after.meta.total).toBe(2);
      expect(after.data.map((m: { role: string }) => m.role).sort()).toEqual(['admin', role].sort());
    });
  }

  it('demoting a member shrinks their key at once; promoting widens it again', async () => {
    const admin = await t.signUp();
    const second = await t.member(admin, 'admin');
    const key = await t.apiKey('all', second);
    const invite = () =>
      t.app.inject({ method: 'POST', url: MEMBERS, headers: bearer(key), payload: { email: uniqueEmail(), role: 'viewer' } });
    expect((await invite()).statusCode).toBe(201);
    const demoted = await admin.inject({ method: 'PATCH', url: `${MEMBERS}/${second.memberId}`, payload: { role: 'viewer' } });
    expect(demoted.statusCode).toBe(200);
    const refused = await invite();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('forbidden');
    expect((await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(key) })).statusCode).toBe(200);
    expect((await second.inject({ method: 'POST', url: MEMBERS, payload: { email: uniqueEmail(), role: 'viewer' } })).statusCode).toBe(403);
    await admin.inject({ method: 'PATCH', url: `${MEMBERS}/${second.memberId}`, payload: { role: 'admin' } });
    expect((await invite()).statusCode).toBe(201);
  });

  it('a key belongs to the workspace it was made in, whichever workspace the session is in now', async () => {
    const admin = await t.signUp();
    const viewer = await t.member(admin, 'viewer');
    const keyThere = await t.apiKey('all', viewer);
    const listed = (await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(keyThere) })).json();
    expect(listed.data.map((m: { id: string }) => m.id)).toContain(admin.memberId);
    // Back to the viewer's own workspace, where they are admin.
    const own = (await viewer.inject({ method: 'GET', url: '/v1/auth/session' })).json().data.workspaces.find(
      (w: { id: string }) => w.id !== admin.workspaceId,
    );
    expect(own.role).toBe('admin');
    const switched = await viewer.inject({ method: 'POST', url: '/v1/auth/workspace', payload: { workspace_id: own.id } });
    expect(switched.statusCode).toBe(200);
    expect(switched.json().data.workspace).toMatchObject({ id: own.id, role: 'admin' });
    expect((await viewer.inject({ method: 'GET', url: MEMBERS })).json().meta.total).toBe(1);
    const stillThere = (await t.app.inject({ method: 'GET', url: MEMBERS, headers: bearer(keyThere) })).json();
    expect(stillThere.meta.total).toBe(2);
    // ...and still only a viewer there.
    const refused = await t.app.inject({
      method: 'POST',
      url: MEMBERS,
      headers: bearer(keyThere),
      payload: { email: uniqueEmail(), role: 'viewer' },
    });
    expect(refused.statusCode).toBe(403);
  });

  it('switching to a workspace the user does not belong to is a 404 and changes nothing', async () => {
    const a = await t.signUp();
    const b = await t.signUp();
    const res = await a.inject({ method: 'POST', url: '/v1/auth/workspace', payload: { workspace_id: b.workspaceId } });
    expect(res.statusCode).toBe(404);
    const session = (await a.inject({ method: 'GET', url: '/v1/auth/session' })).json().data;
    expect(session.workspace.id).toBe(a.workspaceId);
  });
});
