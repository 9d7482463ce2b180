import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/core/clock';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

const REDIRECT = 'https://crm.example.com/callback';

/** Authorized apps: what each user granted, what admins see of their workspace, and revoking either. */
describe('OAuth authorizations (Authorized apps)', () => {
  const clock = manualClock('2026-06-01T10:00:00.000Z');
  let t: TestApp;
  let owner: TestSession;
  let clientId: string;
  let clientSecret: string;

  async function grant(who: TestSession, workspaceId?: string) {
    const decided = await who.inject({
      method: 'POST',
      url: '/v1/oauth/authorize',
      payload: {
        client_id: clientId,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'demos:read',
        decision: 'allow',
        ...(workspaceId ? { workspace_id: workspaceId } : {}),
      },
    });
    const code = new URL(decided.json().data.redirect_to).searchParams.get('code') ?? '';
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: clientId, client_secret: clientSecret, redirect_uri: REDIRECT }).toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { access_token: string; refresh_token: string };
  }

  const list = (who: TestSession, query = '') => who.inject({ method: 'GET', url: `/v1/oauth/authorizations${query}` });

  /** The stored last use, polled: it is written beside the request, not before answering. */
  async function lastUsed(who: TestSession, id: string, expected: string | null) {
    for (let i = 0; i < 50; i++) {
      const found = (await list(who)).json().data.find((a: { id: string }) => a.id === id);
      if (found.last_used_at === expected) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect.fail(`last_used_at never became ${expected}`);
  }

  beforeAll(async () => {
    t = await createTestApp({ clock });
    owner = await t.signUp();
    const res = await owner.inject({ method: 'POST', url: '/v1/oauth/apps', payload: { name: 'Acme CRM', redirect_uris: [REDIRECT], scopes: ['demos:read'] } });
    clientId = res.json().data.client_id;
    clientSecret = res.json().data.client_secret;
  });
  afterAll(() => t?.close());

  it('lists the apps a user granted in each of their workspaces, with the last use written at most once a minute', async () => {
    const user = await t.signUp();
    const home = user.workspaceId;
    const tokens = await grant(user);
    const listed = await list(user);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().meta).toMatchObject({ total: 1, page: 1, per_page: 20 });
    const [entry] = listed.json().data;
    expect(entry).toEqual({
      id: expect.stringMatching(/^grt_/),
      app: { id: clientId, name: 'Acme CRM', verified: false },
      workspace: { id: home, name: expect.any(String) },
      user: { id: user.userId, email: user.email },
      scopes: ['demos:read'],
      created_at: '2026-06-01T10:00:00.000Z',
      last_used_at: null,
    });

    expect((await t.app.inject({ method: 'GET', url: '/v1/demos', headers: bearer(tokens.access_token) })).statusCode).toBe(200);
    await lastUsed(user, entry.id, '2026-06-01T10:00:00.000Z');
    clock.advance(30_000);
    expect((await t.app.inject({ method: 'GET', url: '/v1/demos', headers: bearer(tokens.access_token) })).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    await lastUsed(user, entry.id, '2026-06-01T10:00:00.000Z');
    clock.advance(31_000);
    expect((await t.app.inject({ method: 'GET', url: '/v1/demos', headers: bearer(tokens.access_token) })).statusCode).toBe(200);
    await lastUsed(user, entry.id, '2026-06-01T10:01:01.000Z');

    // A grant in another workspace of the user is listed too; the owner of the app sees none of them as theirs.
    const other = await t.signUp();
    const invited = await other.inject({ method: 'POST', url: '/v1/team/members', payload: { email: user.email, role: 'viewer' } });
    await user.inject({ method: 'POST', url: `/v1/invitations/${invited.json().data.invitation.url.split('/invite/')[1]}/accept`, payload: {} });
    await grant(user);
    const both = (await list(user)).json().data.map((a: { workspace: { id: string } }) => a.workspace.id);
    expect(both.sort()).toEqual([home, other.workspaceId].sort());
    expect((await list(owner)).json().data).toEqual([]);
  });

  it('lets a user revoke their own grant: its tokens stop at once and the audit log says who', async () => {
    const user = await t.signUp();
    const tokens = await grant(user);
    const [entry] = (await list(user)).json().data;
    const stranger = await t.signUp();
    expect((await stranger.inject({ method: 'DELETE', url: `/v1/oauth/authorizations/${entry.id}` })).statusCode).toBe(404);
    // The app's owner workspace's admin has no say over another workspace's grant.
    expect((await owner.inject({ method: 'DELETE', url: `/v1/oauth/authorizations/${entry.id}` })).statusCode).toBe(404);

    const revoked = await user.inject({ method: 'DELETE', url: `/v1/oauth/authorizations/${entry.id}` });
    expect(revoked.statusCode).toBe(204);
    expect(revoked.body).toBe('');
    expect((await t.app.inject({ method: 'GET', url: '/v1/demos', headers: bearer(tokens.access_token) })).statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId, client_secret: clientSecret }).toString(),
    });
    expect(refresh.json().error).toBe('invalid_grant');
    expect((await list(user)).json().data).toEqual([]);
    expect((await user.inject({ method: 'DELETE', url: `/v1/oauth/authorizations/${entry.id}` })).statusCode).toBe(404);

    const audit = await user.inject({ method: 'GET', url: '/v1/audit-log?action=grant.revoked' });
    expect(audit.json().data).toEqual([
      expect.objectContaining({
        action: 'grant.revoked',
        actor: expect.objectContaining({ type: 'user', user_id: user.userId }),
        target: expect.objectContaining({ type: 'oauth_grant', id: entry.id }),
        changes: expect.objectContaining({ reason: 'revoked by the user' }),
      }),
    ]);
  });

  it('shows admins every grant in their workspace and lets them revoke any; others may not list them', async () => {
    const admin = await t.signUp();
    const editor = await t.member(admin, 'editor');
    const editorTokens = await grant(editor);
    await grant(admin);

    const all = await list(admin, '?all_members=true');
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data.map((a: { user: { email: string } }) => a.user.email).sort()).toEqual([admin.email, editor.email].sort());
    expect((await list(admin)).json().data).toHaveLength(1);
    const refused = await list(editor, '?all_members=true');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('forbidden');
    expect((await list(admin, '?all_members=yes')).statusCode).toBe(400);

    const editorGrant = all.json().data.find((a: { user: { email: string } }) => a.user.email === editor.email);
    expect((await admin.inject({ method: 'DELETE', url: `/v1/oauth/authorizations/${editorGrant.id}` })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/v1/demos', headers: bearer(editorTokens.access_token) })).statusCode).toBe(401);
    const audit = await admin.inject({ method: 'GET', url: '/v1/audit-log?action=grant.revoked' });
    expect(audit.json().data[0]).toMatchObject({ actor: { user_id: admin.userId }, changes: { reason: 'revoked by an admin' } });
  });

  it('is for the web session only: an API key or an OAuth token cannot list or revoke grants', async () => {
    const user = await t.signUp();
    const tokens = await grant(user);
    const key = await t.apiKey('all', user);
    for (const credential of [key, tokens.access_token]) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/oauth/authorizations', headers: bearer(credential) });
      expect(res.statusCode).toBe(403);
    }
  });
});
