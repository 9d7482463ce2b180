import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

const REDIRECT = 'https://crm.example.com/callback';

/** An app registered in one workspace, authorised by members of others (issue 15). */
describe('OAuth apps any workspace can authorise', () => {
  let t: TestApp;
  let owner: TestSession;
  let clientId: string;
  let clientSecret: string;

  const query = (extra: Record<string, string> = {}) => ({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'demos:read demos:write',
    state: 'st',
    ...extra,
  });

  async function tokensOf(who: TestSession, workspaceId?: string) {
    const decided = await who.inject({
      method: 'POST',
      url: '/v1/oauth/authorize',
      payload: { ...query(), decision: 'allow', ...(workspaceId ? { workspace_id: workspaceId } : {}) },
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const code = new URL(decided.json().data.redirect_to).searchParams.get('code') ?? '';
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: clientId, client_secret: clientSecret, redirect_uri: REDIRECT }).toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().access_token as string;
  }

  /** Makes `who` (signed up with a workspace of their own) a member of `admin`'s workspace too; their session moves there. */
  async function join(admin: TestSession, who: TestSession, role: 'admin' | 'editor' | 'viewer') {
    const invited = await admin.inject({ method: 'POST', url: '/v1/team/members', payload: { email: who.email, role } });
    expect(invited.statusCode, invited.body).toBe(201);
    const token = invited.json().data.invitation.url.split('/invite/')[1];
    const accepted = await who.inject({ method: 'POST', url: `/v1/invitations/${token}/accept`, payload: {} });
    expect(accepted.statusCode, accepted.body).toBeLessThan(300);
  }

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.signUp();
    const res = await owner.inject({
      method: 'POST',
      url: '/v1/oauth/apps',
      payload: { name: 'Acme CRM', redirect_uris: [REDIRECT], scopes: ['demos:read', 'demos:write'] },
    });
    clientId = res.json().data.client_id;
    clientSecret = res.json().data.client_secret;
  });
  afterAll(() => t?.close());

  it('shows a member of another workspace the app, its owner, that it is not verified, and their workspaces', async () => {
    const stranger = await t.signUp();
    const res = await stranger.inject({ method: 'GET', url: `/v1/oauth/authorize?${new URLSearchParams(query())}` });
    expect(res.statusCode, res.body).toBe(200);
    const ownerName = (await owner.inject({ method: 'GET', url: '/v1/auth/session' })).json().data.workspace.name;
    expect(res.json().data).toMatchObject({
      app: { id: clientId, name: 'Acme CRM', verified: false, built_in: false, owner_workspace_name: ownerName },
      workspace_id: stranger.workspaceId,
      workspaces: [{ id: stranger.workspaceId, role: 'admin' }],
      error: null,
      scopes: [
        { name: 'demos:read', description: 'List and read demos', roles: ['admin', 'editor', 'viewer'] },
        { name: 'demos:write', description: 'Create, update and delete demos', roles: ['admin', 'editor'] },
      ],
    });
  });

  it('binds the grant to the granting workspace: tokens act there and nowhere else', async () => {
    const stranger = await t.signUp();
    const access = await tokensOf(stranger);
    const created = await t.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(access), payload: { title: 'From the CRM' } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id;
    expect((await stranger.inject({ method: 'GET', url: `/v1/demos/${id}` })).statusCode).toBe(200);
    expect((await owner.inject({ method: 'GET', url: `/v1/demos/${id}` })).statusCode).toBe(404);
  });

  it('grants the workspace the user picks, with the rights of their role there (scopes ∩ role)', async () => {
    const user = await t.signUp();
    const home = user.workspaceId;
    const other = await t.signUp();
    await join(other, user, 'viewer');
    // The session is now in `other`'s workspace, where the user is a viewer.
    const consent = await user.inject({ method: 'GET', url: `/v1/oauth/authorize?${new URLSearchParams(query())}` });
    expect(consent.json().data.workspace_id).toBe(other.workspaceId);
    expect(consent.json().data.workspaces).toEqual([
      expect.objectContaining({ id: home, role: 'admin' }),
      expect.objectContaining({ id: other.workspaceId, role: 'viewer' }),
    ]);

    const asViewer = await tokensOf(user);
    expect((await t.app.inject({ method: 'GET', url: '/v1/demos', headers: bearer(asViewer) })).statusCode).toBe(200);
    const refused = await t.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(asViewer), payload: { title: 'No' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('forbidden');

    const asAdmin = await tokensOf(user, home);
    const made = await t.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(asAdmin), payload: { title: 'Home' } });
    expect(made.statusCode, made.body).toBe(201);
    expect((await other.inject({ method: 'GET', url: `/v1/demos/${made.json().data.id}` })).statusCode).toBe(404);
  });

  it('refuses a workspace the user is not an active member of, without redirecting', async () => {
    const stranger = await t.signUp();
    for (const workspaceId of [owner.workspaceId, 'ws_00000000000000000000000000']) {
      const res = await stranger.inject({ method: 'POST', url: '/v1/oauth/authorize', payload: { ...query(), decision: 'allow', workspace_id: workspaceId } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('invalid_request');
      expect(res.body).not.toContain('redirect_to');
    }
  });

  it('shows the verified flag the instance operator sets', async () => {
    await t.ctx.services.oauth.oauthApps.setVerified(clientId, true);
    const stranger = await t.signUp();
    const res = await stranger.inject({ method: 'GET', url: `/v1/oauth/authorize?${new URLSearchParams(query())}` });
    expect(res.json().data.app.verified).toBe(true);
    const audit = await owner.inject({ method: 'GET', url: '/v1/audit-log?action=oauth_app.verified' });
    expect(audit.statusCode, audit.body).toBe(200);
    expect(audit.json().data).toEqual([expect.objectContaining({ action: 'oauth_app.verified', actor: expect.objectContaining({ type: 'system' }) })]);
    await t.ctx.services.oauth.oauthApps.setVerified(clientId, false);
  });
});
