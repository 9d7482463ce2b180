import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';

const REDIRECT = 'https://client.example.com/callback';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/**
 * Malformed client credentials and client metadata, each once a 500: the token and revocation endpoints
 * percent-decoded HTTP Basic credentials without a guard (`%zz` threw URIError) and passed a NUL on to
 * PostgreSQL, and dynamic registration stored a client_name with a NUL.
 */
describe('OAuth endpoints and malformed input', () => {
  let t: TestApp;
  let app: { id: string; secret: string };

  beforeAll(async () => {
    t = await createTestApp({ config: { OAUTH_DYNAMIC_REGISTRATION: true } });
    const user = await t.signUp();
    const res = await user.inject({ method: 'POST', url: '/v1/oauth/apps', payload: { name: 'Acme', redirect_uris: [REDIRECT], scopes: ['demos:read'] } });
    app = { id: res.json().data.client_id, secret: res.json().data.client_secret };
  });
  afterAll(() => t?.close());

  const MALFORMED_BASIC: Array<[string, string]> = [
    ['a bad percent escape in the id', `Basic ${base64('%zz:x')}`],
    ['a bad percent escape in the secret', `Basic ${base64('app_x:%e0%a4')}`],
    ['an encoded NUL in the id', `Basic ${base64('app_x%00:x')}`],
    ['an encoded NUL in the secret', `Basic ${base64('app_x:se%00cret')}`],
    ['a raw NUL', `Basic ${base64('app_\u0000x:y')}`],
    ['an encoded lone surrogate', `Basic ${base64('app_x:%ed%a0%80')}`],
    ['bytes that are not UTF-8', `Basic ${Buffer.from([0x61, 0xff, 0x3a, 0x62]).toString('base64')}`],
    ['no colon', `Basic ${base64('app_x')}`],
    ['not base64', 'Basic !!!not-base64!!!'],
    ['base64 cut short', `Basic ${base64('app_x:y').slice(0, -2)}`],
    ['nothing after the scheme', 'Basic'],
    ['a blank after the scheme', 'Basic   '],
    ['a lower-case scheme and junk', 'basic %zz'],
    ['an id too long', `Basic ${base64(`${'a'.repeat(101)}:x`)}`],
  ];

  describe.each([
    ['/v1/oauth/token', 'grant_type=refresh_token&refresh_token=dsr_x'],
    ['/v1/oauth/revoke', 'token=dsr_x'],
  ])('%s', (url, body) => {
    it.each(MALFORMED_BASIC)('answers %s with 401 invalid_client, WWW-Authenticate: Basic, in RFC 6749 form', async (_, authorization) => {
      const res = await t.app.inject({ method: 'POST', url, headers: { ...FORM, authorization }, payload: body });
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual({ error: 'invalid_client', error_description: expect.stringMatching(/^Malformed HTTP Basic credentials: /) });
      expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/);
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('still takes well-formed Basic credentials, percent-encoded as RFC 6749 §2.3.1 says', async () => {
      const encoded = `${encodeURIComponent(app.id)}:${encodeURIComponent(app.secret)}`;
      const res = await t.app.inject({ method: 'POST', url, headers: { ...FORM, authorization: `Basic ${base64(encoded)}` }, payload: body });
      // The client authenticated: what is left is the made-up token (invalid_grant), or a revocation's 200.
      expect(res.statusCode, res.body).toBe(url.endsWith('/token') ? 400 : 200);
      if (url.endsWith('/token')) expect(res.json().error).toBe('invalid_grant');
    });
  });

  // Registration is rate-limited to 10 an hour per address: each attempt comes from its own.
  let attempt = 0;
  const register = (payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/v1/oauth/register', payload: payload as object, remoteAddress: `198.51.100.${++attempt}` });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['a NUL in client_name', { client_name: 'Claude\u0000' }, 'invalid_client_metadata', 'client_name'],
    ['a NUL in a redirect_uris entry', { redirect_uris: ['http://127.0.0.1/cb\u0000'] }, 'invalid_redirect_uri', 'redirect_uris.0'],
    ['a NUL in scope', { scope: 'demos:read\u0000' }, 'invalid_client_metadata', 'scope'],
    ['a NUL in token_endpoint_auth_method', { token_endpoint_auth_method: 'none\u0000' }, 'invalid_client_metadata', 'token_endpoint_auth_method'],
    ['a NUL in a grant_types entry', { grant_types: ['authorization_code\u0000'] }, 'invalid_client_metadata', 'grant_types.0'],
    ['a NUL in a response_types entry', { response_types: ['code\u0000'] }, 'invalid_client_metadata', 'response_types.0'],
    ['a NUL in client_uri', { client_uri: 'https://x.example/\u0000' }, 'invalid_client_metadata', 'client_uri'],
    ['a NUL in logo_uri', { logo_uri: 'https://x.example/logo\u0000.png' }, 'invalid_client_metadata', 'logo_uri'],
    ['a NUL in a contacts entry', { contacts: ['a@x.example', 'b\u0000@x.example'] }, 'invalid_client_metadata', 'contacts.1'],
    ['a NUL in a nested member', { jwks: { keys: [{ kid: 'k\u0000' }] } }, 'invalid_client_metadata', 'jwks.keys.0.kid'],
    ['a lone surrogate in client_name', { client_name: 'x\ud800' }, 'invalid_client_metadata', 'client_name'],
  ])('refuses a registration with %s: 400 in RFC 7591 form, naming the field', async (_, fields, error, field) => {
    const res = await register({ client_name: 'Claude', redirect_uris: ['http://127.0.0.1/cb'], ...fields });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ error, error_description: expect.stringMatching(new RegExp(`^${field.replaceAll('.', '\\.')}: `)) });
    // Named, not echoed.
    expect(res.json().error_description).not.toContain('\u0000');
  });

  it('registers no client for any of them', async () => {
    const { rows } = await t.db.database.executeSql(`select count(*)::int as n from oauth_apps where name like 'Claude%'`);
    expect(rows[0]).toEqual({ n: 0 });
  });
});
