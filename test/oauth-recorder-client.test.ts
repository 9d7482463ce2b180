import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDER_CLIENT_ID } from '../src/oauth/recorder-client';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

const EXTENSION_ID = 'hndijdjkhibnckcfpfhekjgiokmoppli';
const REDIRECT = `chrome-extension://${EXTENSION_ID}/oauth-callback.html`;

describe('the built-in recorder client', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = (extra: Record<string, string> = {}) => ({
    client_id: RECORDER_CLIENT_ID,
    redirect_uri: REDIRECT,
    response_type: 'code',
    state: 's1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });

  it('lets a member of any workspace grant it their own workspace, with PKCE and no secret', async () => {
    for (const who of [await t.signUp(), await t.signUp()]) {
      const consent = await who.inject({ method: 'GET', url: `/v1/oauth/authorize?${new URLSearchParams(query())}` });
      expect(consent.statusCode).toBe(200);
      expect(consent.json().data).toMatchObject({ app: { id: RECORDER_CLIENT_ID, name: 'Demoshare Recorder' }, error: null });
      expect(consent.json().data.scopes.map((s: { name: string }) => s.name)).toEqual(['demos:read', 'demos:write']);

      const decided = await who.inject({ method: 'POST', url: '/v1/oauth/authorize', payload: { ...query(), decision: 'allow' } });
      const redirect = new URL(decided.json().data.redirect_to);
      expect(decided.json().data.redirect_to.split('?')[0]).toBe(REDIRECT);
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'authorization_code',
          code: redirect.searchParams.get('code') ?? '',
          client_id: RECORDER_CLIENT_ID,
          redirect_uri: REDIRECT,
          code_verifier: verifier,
        }).toString(),
      });
      expect(res.statusCode).toBe(200);
      const { access_token } = res.json();
      const demo = await t.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(access_token), payload: { title: 'Recorded' } });
      expect(demo.statusCode).toBe(201);
      // The demo lands in the workspace of the member who granted access, and nowhere else.
      const listed = await who.inject({ method: 'GET', url: '/v1/demos' });
      expect(listed.json().data.map((d: { id: string }) => d.id)).toContain(demo.json().data.id);
      const team = await t.app.inject({ method: 'GET', url: '/v1/team/members', headers: bearer(access_token) });
      expect(team.statusCode).toBe(403);
    }
  });

  it('refuses a redirect address of an extension the instance does not trust, without redirecting', async () => {
    const who = await t.signUp();
    const other = 'chrome-extension://aaaabbbbccccddddeeeeffffgggghhhh/oauth-callback.html';
    const res = await who.inject({ method: 'GET', url: `/v1/oauth/authorize?${new URLSearchParams(query({ redirect_uri: other }))}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/redirect_uri/);
  });

  it('requires PKCE, as every public client does', async () => {
    const who = await t.signUp();
    const { code_challenge: _c, code_challenge_method: _m, ...plain } = query();
    const res = await who.inject({ method: 'GET', url: `/v1/oauth/authorize?${new URLSearchParams(plain)}` });
    expect(res.json().data.error).toMatchObject({ error: 'invalid_request' });
  });

  it('is not listed or editable as a workspace app', async () => {
    const who = await t.signUp();
    const list = await who.inject({ method: 'GET', url: '/v1/oauth/apps' });
    expect(list.json().data).toEqual([]);
    const del = await who.inject({ method: 'DELETE', url: `/v1/oauth/apps/${RECORDER_CLIENT_ID}` });
    expect([400, 404]).toContain(del.statusCode);
  });
});
