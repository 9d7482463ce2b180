import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../src/audit/actor';
import { manualClock } from '../src/core/clock';
import { createShare, demoWithSteps } from './helpers/shares';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

const AGENT = 'audit-test/1.0';
const REDIRECT = 'https://client.example.com/callback';
// A public IP literal: the SSRF guard accepts it without DNS, and nothing is delivered (no workers).
const HOOK_URL = 'https://93.184.215.14/hooks/demoshare';

interface Entry {
  id: string;
  action: string;
  actor: { type: string; id: string | null; user_id: string | null; label: string };
  target: { type: string; id: string | null; label: string | null };
  changes: Record<string, unknown>;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
}

describe('audit log', () => {
  const clock = manualClock('2026-03-01T09:00:00.000Z');
  let t: TestApp;
  let admin: TestSession;

  const as = (session: TestSession, method: string, url: string, payload?: object) =>
    session.inject({ method: method as 'GET', url, headers: { 'user-agent': AGENT }, ...(payload ? { payload } : {}) });

  async function entries(query: Record<string, string> = {}, session = admin) {
    const res = await as(session, 'GET', `/v1/audit-log?${new URLSearchParams(query)}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: Entry[]; meta: { total: number; page: number; per_page: number } };
  }

  /** The one entry of `action` on `target`, checked for the actor and for every secret the API handed out. */
  async function onlyEntry(action: string, target: string, secrets: string[] = []): Promise<Entry> {
    const { data, meta } = await entries({ action, target });
    expect(meta.total, `${action} on ${target}`).toBe(1);
    const entry = data[0]!;
    expect(entry.target.id).toBe(target);
    const stored = await t.db.database.executeSql('select * from audit_log where id = $1', [entry.id]);
    const whole = JSON.stringify(stored.rows[0]) + JSON.stringify(entry);
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(6);
      expect(whole).not.toContain(secret);
    }
    return entry;
  }

  function expectAdmin(entry: Entry) {
    expect(entry.actor).toEqual({ type: 'user', id: admin.userId, user_id: admin.userId, label: admin.email });
    expect(entry.ip).toBe('127.0.0.1');
    expect(entry.user_agent).toBe(AGENT);
  }

  beforeAll(async () => {
    t = await createTestApp({ clock });
    admin = await t.signUp();
  });
  afterAll(() => t?.close());

  it('records API key creation, rotation and revocation, without the key', async () => {
    const created = await as(admin, 'POST', '/v1/api-keys', { name: 'CI deploy', scopes: ['demos:read'] });
    const { id, key } = created.json().data;
    const createdEntry = await onlyEntry('key.created', id, [key]);
    expectAdmin(createdEntry);
    expect(createdEntry.target).toEqual({ type: 'api_key', id, label: 'CI deploy' });
    expect(createdEntry.changes).toMatchObject({ scopes: ['demos:read'] });

    const rotated = await as(admin, 'POST', `/v1/api-keys/${id}/rotate`, {});
    expect(rotated.statusCode).toBe(201);
    const fresh = rotated.json().data;
    const rotatedEntry = await onlyEntry('key.rotated', id, [key, fresh.key]);
    expect(rotatedEntry.changes).toMatchObject({ replaced_by: fresh.id });

    expect((await as(admin, 'DELETE', `/v1/api-keys/${fresh.id}`)).statusCode).toBe(204);
    expectAdmin(await onlyEntry('key.revoked', fresh.id, [key, fresh.key]));

    // The CLI's `keys create` goes through the same path, as the system.
    const cli = await t.ctx.services.apiKeys.apiKeys.issueRecorded(admin.workspaceId, admin.memberId, { name: 'cli', scopes: ['demos:read'] }, systemActor());
    const cliEntry = await onlyEntry('key.created', cli.row.id, [cli.key]);
    expect(cliEntry.actor).toEqual({ type: 'system', id: null, user_id: null, label: 'system' });
    expect(cliEntry.changes).toMatchObject({ member_id: admin.memberId });
  });

  it('records invitations, role changes and removals, without invitation links', async () => {
    const invited = await as(admin, 'POST', '/v1/team/members', { email: 'carol@example.com', role: 'editor' });
    expect(invited.statusCode).toBe(201);
    const member = invited.json().data;
    const firstToken = String(member.invitation.url).split('/invite/')[1]!;
    const entry = await onlyEntry('member.invited', member.id, [firstToken]);
    expectAdmin(entry);
    expect(entry.target).toEqual({ type: 'member', id: member.id, label: 'carol@example.com' });
    expect(entry.changes).toEqual({ role: 'editor' });

    const resent = await as(admin, 'POST', `/v1/team/members/${member.id}/invitation`);
    expect(resent.statusCode).toBe(200);
    const secondToken = String(resent.json().data.invitation.url).split('/invite/')[1]!;
    await onlyEntry('invitation.resent', member.id, [firstToken, secondToken]);
    expect((await as(admin, 'DELETE', `/v1/team/members/${member.id}/invitation`)).statusCode).toBe(204);
    await onlyEntry('invitation.revoked', member.id, [firstToken, secondToken]);

    const dave = await t.member(admin, 'editor');
    const changed = await as(admin, 'PATCH', `/v1/team/members/${dave.memberId}`, { role: 'viewer' });
    expect(changed.statusCode).toBe(200);
    const roleEntry = await onlyEntry('member.role_changed', dave.memberId);
    expect(roleEntry.changes).toEqual({ role: { from: 'editor', to: 'viewer' } });
    expect((await as(admin, 'DELETE', `/v1/team/members/${dave.memberId}`)).statusCode).toBe(204);
    expect((await onlyEntry('member.removed', dave.memberId)).target.label).toBe(dave.email);
  });

  it('records publishing by an API key, unpublishing and deletion', async () => {
    const key = await t.apiKey('all', admin);
    const keys = (await as(admin, 'GET', '/v1/api-keys')).json().data as { id: string; name: string }[];
    const keyId = keys.find((k) => k.name === 'test key')!.id;
    const demoId = await demoWithSteps(t, key, 1);
    const published = await onlyEntry('demo.published', demoId, [key]);
    expect(published.actor).toEqual({ type: 'api_key', id: keyId, user_id: admin.userId, label: `test key (${admin.email})` });
    expect(published.target).toEqual({ type: 'demo', id: demoId, label: 'Secret roadmap tour' });
    expect(published.changes).toEqual({ status: { from: 'draft', to: 'published' }, version: 1 });

    // An edit that does not change the status is not a publication event; publishing it is.
    await as(admin, 'PATCH', `/v1/demos/${demoId}`, { title: 'Renamed tour' });
    expect((await entries({ target: demoId })).meta.total).toBe(1);
    expect((await as(admin, 'POST', `/v1/demos/${demoId}/publish`)).statusCode).toBe(200);
    const both = (await entries({ target: demoId })).data;
    expect(both).toHaveLength(2);
    expect(both[0]).toMatchObject({ action: 'demo.published', changes: { version: 2 } });

    expect((await as(admin, 'PATCH', `/v1/demos/${demoId}`, { status: 'draft' })).statusCode).toBe(200);
    expectAdmin(await onlyEntry('demo.unpublished', demoId));
    expect((await as(admin, 'DELETE', `/v1/demos/${demoId}`)).statusCode).toBe(204);
    expect((await onlyEntry('demo.deleted', demoId)).target.label).toBe('Renamed tour');
  });

  it('records share links without their passwords or tokens', async () => {
    const key = await t.apiKey('all', admin);
    const demoId = await demoWithSteps(t, key, 1);
    const res = await as(admin, 'POST', `/v1/demos/${demoId}/shares`, { name: 'Board', password: 'first-password-1' });
    expect(res.statusCode).toBe(201);
    const share = res.json().data;
    const token = String(share.url).split('/s/')[1]!;
    const created = await onlyEntry('share.created', share.id, ['first-password-1', token]);
    expect(created.changes).toMatchObject({ demo_id: demoId, has_password: true });

    const patched = await as(admin, 'PATCH', `/v1/shares/${share.id}`, { password: 'second-password-2', name: 'Board v2' });
    expect(patched.statusCode).toBe(200);
    const changed = await onlyEntry('share.changed', share.id, ['first-password-1', 'second-password-2', token]);
    expect(changed.changes).toEqual({ demo_id: demoId, fields: ['name', 'password'] });
    expect((await as(admin, 'DELETE', `/v1/shares/${share.id}`)).statusCode).toBe(204);
    await onlyEntry('share.revoked', share.id, [token]);
    // A share made through an API key names the key.
    const other = await createShare(t, key, demoId);
    expect((await onlyEntry('share.created', other.id, [other.token])).actor.type).toBe('api_key');
  });

  it('records hubs without their passwords or addresses, and A/B tests on a link from start to removal', async () => {
    const hub = await as(admin, 'POST', '/v1/hubs', { name: 'Demo center', password: 'hub-password-1', require_identification: true, allowed_domains: ['example.com'] });
    expect(hub.statusCode, hub.body).toBe(201);
    const hubId = hub.json().data.id;
    const created = await onlyEntry('hub.created', hubId, ['hub-password-1']);
    expectAdmin(created);
    expect(created.target).toEqual({ type: 'hub', id: hubId, label: 'Demo center' });
    expect(created.changes).toMatchObject({ has_password: true, allow_list: 1, require_identification: true });
    expect(JSON.stringify(created.changes)).not.toContain('example.com');
    expect((await as(admin, 'PATCH', `/v1/hubs/${hubId}`, { password: 'hub-password-2', title: 'Our demos' })).statusCode).toBe(200);
    const changed = await onlyEntry('hub.changed', hubId, ['hub-password-1', 'hub-password-2']);
    expect(changed.changes).toMatchObject({ fields: ['title', 'password'], has_password: true });
    expect((await as(admin, 'DELETE', `/v1/hubs/${hubId}`)).statusCode).toBe(204);
    await onlyEntry('hub.deleted', hubId, ['hub-password-2']);

    const key = await t.apiKey('all', admin);
    const [a, b] = [await demoWithSteps(t, key, 1), await demoWithSteps(t, key, 1)];
    const link = await createShare(t, key, a);
    const started = await as(admin, 'POST', `/v1/shares/${link.id}/experiment`, {
      name: 'Short vs full',
      arms: [
        { demo_id: a, weight: 1 },
        { demo_id: b, weight: 3 },
      ],
    });
    expect(started.statusCode, started.body).toBe(201);
    const experiment = started.json().data;
    const start = await onlyEntry('experiment.started', experiment.id);
    expect(start.target.label).toBe('Short vs full');
    expect(start.changes).toMatchObject({ share_id: link.id, metric: 'completion' });
    expect((start.changes.arms as { weight: number }[]).map((arm) => arm.weight)).toEqual([1, 3]);
    const armB = experiment.arms[1].id;
    expect((await as(admin, 'POST', `/v1/shares/${link.id}/experiment/stop`, { winner_arm_id: armB })).statusCode).toBe(200);
    const stop = await onlyEntry('experiment.stopped', experiment.id);
    expect(stop.changes).toMatchObject({ share_id: link.id, winner_arm_id: armB, winner: experiment.arms[1].label, named_by: 'member' });
    expect((await as(admin, 'DELETE', `/v1/shares/${link.id}/experiment`)).statusCode).toBe(204);
    expect((await onlyEntry('experiment.deleted', experiment.id)).changes).toEqual({ share_id: link.id, status: 'stopped' });
  });

  it('records webhooks without their signing secrets', async () => {
    const res = await as(admin, 'POST', '/v1/webhooks', { url: HOOK_URL, events: ['demo.viewed'] });
    expect(res.statusCode).toBe(201);
    const { id, secret } = res.json().data;
    expectAdmin(await onlyEntry('webhook.created', id, [secret]));
    const patched = await as(admin, 'PATCH', `/v1/webhooks/${id}`, { events: ['demo.viewed', 'demo.completed'] });
    expect(patched.statusCode).toBe(200);
    const changed = await onlyEntry('webhook.changed', id, [secret]);
    expect(changed.changes).toEqual({ events: { from: ['demo.viewed'], to: ['demo.viewed', 'demo.completed'] } });
    const rotated = await as(admin, 'POST', `/v1/webhooks/${id}/rotate-secret`, { secret: 'whsec_given-by-the-admin' });
    expect(rotated.statusCode).toBe(200);
    await onlyEntry('webhook.secret_rotated', id, [secret, 'whsec_given-by-the-admin']);
    expect((await as(admin, 'DELETE', `/v1/webhooks/${id}`)).statusCode).toBe(204);
    await onlyEntry('webhook.deleted', id, [secret, 'whsec_given-by-the-admin']);
  });

  it('records a long value cut before a character, not through it (an emoji at the cut was a 500)', async () => {
    const uri = `https://client.example/${'a'.repeat(276)}🙂/callback`;
    const res = await as(admin, 'POST', '/v1/oauth/apps', { name: 'Long redirect', redirect_uris: [uri], scopes: ['demos:read'] });
    expect(res.statusCode, res.body).toBe(201);
    const entry = await onlyEntry('oauth_app.created', res.json().data.id);
    expect(JSON.stringify(entry)).toContain(`${'a'.repeat(276)}…`);
  });

  it('records OAuth apps and grants revoked by the client or on refresh-token reuse', async () => {
    const res = await as(admin, 'POST', '/v1/oauth/apps', { name: 'Acme CRM', redirect_uris: [REDIRECT], scopes: ['team:read', 'team:write'] });
    expect(res.statusCode).toBe(201);
    const { client_id: appId, client_secret: firstSecret } = res.json().data;
    expectAdmin(await onlyEntry('oauth_app.created', appId, [firstSecret]));
    const rotated = await as(admin, 'POST', `/v1/oauth/apps/${appId}/rotate-secret`);
    const secret = rotated.json().data.client_secret as string;
    await onlyEntry('oauth_app.secret_rotated', appId, [firstSecret, secret]);

    const tokens = async () => {
      const query = { client_id: appId, redirect_uri: REDIRECT, response_type: 'code', scope: 'team:read team:write', state: 's' };
      const consent = await admin.inject({ method: 'POST', url: '/v1/oauth/authorize', payload: { ...query, decision: 'allow' } });
      const code = new URL(consent.json().data.redirect_to).searchParams.get('code')!;
      const form = { grant_type: 'authorization_code', code, client_id: appId, client_secret: secret, redirect_uri: REDIRECT };
      const issued = await t.app.inject({
        method: 'POST',
        url: '/v1/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(form).toString(),
      });
      return issued.json() as { access_token: string; refresh_token: string };
    };
    const tokenForm = (fields: Record<string, string>, path = '/v1/oauth/revoke') =>
      t.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': AGENT },
        payload: new URLSearchParams({ client_id: appId, client_secret: secret, ...fields }).toString(),
      });

    const first = await tokens();
    // An app acting for a user is the actor, named with the user it acts for.
    const invited = await t.app.inject({
      method: 'POST',
      url: '/v1/team/members',
      headers: { ...bearer(first.access_token), 'user-agent': AGENT },
      payload: { email: 'olivia@example.com', role: 'viewer' },
    });
    expect(invited.statusCode).toBe(201);
    const viaApp = await onlyEntry('member.invited', invited.json().data.id, [first.access_token, first.refresh_token, secret]);
    expect(viaApp.actor).toEqual({ type: 'oauth_app', id: appId, user_id: admin.userId, label: `Acme CRM for ${admin.email}` });
    expect(viaApp.user_agent).toBe(AGENT);
    expect((await tokenForm({ token: first.refresh_token })).statusCode).toBe(200);
    const byClient = (await entries({ action: 'grant.revoked', actor: appId })).data;
    expect(byClient).toHaveLength(1);
    expect(byClient[0]!.actor).toEqual({ type: 'oauth_app', id: appId, user_id: admin.userId, label: `Acme CRM for ${admin.email}` });
    expect(byClient[0]!.changes).toMatchObject({ app_id: appId, reason: 'revoked by the client' });
    expect(JSON.stringify(byClient)).not.toContain(first.refresh_token);
    // Revoking it again changes nothing and records nothing.
    await tokenForm({ token: first.refresh_token });
    expect((await entries({ action: 'grant.revoked', actor: appId })).meta.total).toBe(1);

    const second = await tokens();
    const refresh = { grant_type: 'refresh_token', refresh_token: second.refresh_token };
    expect((await tokenForm(refresh, '/v1/oauth/token')).statusCode).toBe(200);
    // Past the grace window for concurrent refreshes (OAUTH_REFRESH_GRACE), a second use is a reuse.
    clock.advance(10_000);
    expect((await tokenForm(refresh, '/v1/oauth/token')).statusCode).toBe(400);
    const reuse = (await entries({ action: 'grant.revoked' })).data.filter((e) => e.actor.type === 'system');
    expect(reuse).toHaveLength(1);
    expect(reuse[0]!.actor).toEqual({ type: 'system', id: null, user_id: null, label: 'system' });
    expect(reuse[0]!.changes).toMatchObject({ reason: 'refresh token reused' });

    expect((await as(admin, 'DELETE', `/v1/oauth/apps/${appId}`)).statusCode).toBe(204);
    await onlyEntry('oauth_app.deleted', appId, [firstSecret, secret]);
  });

  it('records a join, sign-ins, a failed one, a new password and ended sessions in each workspace of the user', async () => {
    const bob = await t.member(admin, 'editor');
    const joined = await onlyEntry('member.joined', bob.memberId);
    expect(joined.actor).toMatchObject({ type: 'user', id: bob.userId, user_id: bob.userId, label: bob.email });
    expect(joined.changes).toEqual({ role: 'editor' });

    const signIn = (password: string, agent = AGENT) =>
      t.app.inject({ method: 'POST', url: '/v1/auth/login', headers: { 'user-agent': agent }, payload: { email: bob.email, password } });
    const ofBob = async (action: string) => (await entries({ action, actor: bob.userId })).data;
    const failuresEverywhere = async () =>
      Number((await t.db.database.executeSql("select count(*)::int as n from audit_log where action = 'user.sign_in_failed'")).rows[0]!.n);

    // Signing up through the invitation started a session: one sign-in already.
    expect(await ofBob('user.signed_in')).toHaveLength(1);
    expect((await signIn('not bob’s password at all')).statusCode).toBe(401);
    const [failed] = await ofBob('user.sign_in_failed');
    expect(failed).toMatchObject({ target: { type: 'user', id: bob.userId, label: bob.email }, ip: '127.0.0.1', user_agent: AGENT });
    // An address no account has belongs to no workspace: nothing is written anywhere.
    const before = await failuresEverywhere();
    const ghost = await t.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'ghost@example.com', password: 'whatever it is' } });
    expect(ghost.statusCode).toBe(401);
    expect(await failuresEverywhere()).toBe(before);

    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
    expect((await signIn('correct horse battery staple', firefox)).statusCode).toBe(200);
    const signIns = await ofBob('user.signed_in');
    expect(signIns).toHaveLength(2);
    expect(signIns[0]!.target).toMatchObject({ type: 'session', label: 'Firefox on Linux' });

    const changed = await as(bob, 'PUT', '/v1/account/password', {
      current_password: 'correct horse battery staple',
      new_password: 'bob has a new long passphrase',
    });
    expect(changed.statusCode).toBe(200);
    const [passwordEntry] = await ofBob('user.password_changed');
    expect(passwordEntry).toMatchObject({ actor: { type: 'user', id: bob.userId }, changes: { ended_sessions: 1 } });
    expect(JSON.stringify(passwordEntry)).not.toContain('bob has a new long passphrase');

    expect((await signIn('bob has a new long passphrase', firefox)).statusCode).toBe(200);
    const sessions = (await as(bob, 'GET', '/v1/account/sessions')).json().data as Array<{ id: string; current: boolean }>;
    const other = sessions.find((s) => !s.current)!;
    expect((await as(bob, 'DELETE', '/v1/account/sessions')).json().data).toEqual({ ended_sessions: 1 });
    const revoked = await onlyEntry('session.revoked', other.id);
    expect(revoked.target.label).toBe('Firefox on Linux');

    // Bob is a member of his own workspace too: each account event is in both logs, the join in admin's only.
    const logs = await t.db.database.executeSql(
      'select action, count(distinct workspace_id)::int as n from audit_log where actor_user_id = $1 group by action order by action',
      [bob.userId],
    );
    expect(logs.rows).toEqual([
      { action: 'member.joined', n: 1 },
      { action: 'session.revoked', n: 2 },
      { action: 'user.password_changed', n: 2 },
      { action: 'user.sign_in_failed', n: 2 },
      { action: 'user.signed_in', n: 2 },
    ]);
  });

  it('is the workspace’s own: another workspace sees only its own member’s sign-up', async () => {
    const stranger = await t.signUp();
    const { data, meta } = await entries({}, stranger);
    expect(meta.total).toBe(1);
    expect(data[0]).toMatchObject({ action: 'user.signed_in', actor: { id: stranger.userId } });
  });
});
