import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, sessionFrom, type TestApp, uniqueEmail } from './helpers/test-app';

const PASSWORD = 'correct horse battery staple';
const MEMBERS = '/v1/team/members';

type Cookie = { name: string; value: string; httpOnly?: boolean; secure?: boolean; sameSite?: string; path?: string };

describe('web sessions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('sets an HttpOnly, SameSite=Lax session cookie and a readable CSRF cookie; not Secure over http', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      payload: { email: uniqueEmail(), password: PASSWORD },
    });
    expect(res.statusCode).toBe(201);
    const cookies = res.cookies as Cookie[];
    const session = cookies.find((c) => c.name === 'ds_session')!;
    const csrf = cookies.find((c) => c.name === 'ds_csrf')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(session.secure).toBeFalsy();
    expect(csrf.httpOnly).toBeFalsy();
    expect(csrf.sameSite).toBe('Lax');
    expect(res.json().data.csrf_token).toBe(csrf.value);
    expect(session.value.length).toBeGreaterThanOrEqual(43);
  });

  it('refuses an unsafe request carrying the cookie but no or a wrong X-CSRF-Token (403), changing nothing', async () => {
    const s = await t.signUp();
    const payload = { email: uniqueEmail('csrf'), role: 'viewer' };
    const none = await t.app.inject({ method: 'POST', url: MEMBERS, headers: { cookie: s.cookie }, payload });
    expect(none.statusCode).toBe(403);
    expect(none.json().error.code).toBe('forbidden');
    expect(none.json().error.message).toMatch(/csrf/i);
    const wrong = await t.app.inject({
      method: 'POST',
      url: MEMBERS,
      headers: { cookie: s.cookie, 'x-csrf-token': `${s.csrf.slice(0, -1)}${s.csrf.endsWith('x') ? 'y' : 'x'}` },
      payload,
    });
    expect(wrong.statusCode).toBe(403);
    const otherSession = await t.signUp();
    const foreign = await t.app.inject({
      method: 'POST',
      url: MEMBERS,
      headers: { cookie: s.cookie, 'x-csrf-token': otherSession.csrf },
      payload,
    });
    expect(foreign.statusCode).toBe(403);
    expect((await s.inject({ method: 'GET', url: MEMBERS })).json().meta.total).toBe(1);
    // Safe methods need no token; the right token lets the change through.
    expect((await t.app.inject({ method: 'GET', url: MEMBERS, headers: { cookie: s.cookie } })).statusCode).toBe(200);
    const ok = await t.app.inject({ method: 'POST', url: MEMBERS, headers: { cookie: s.cookie, 'x-csrf-token': s.csrf }, payload });
    expect(ok.statusCode).toBe(201);
  });

  it('logout ends the session: the cookie no longer works, and the cookies are cleared', async () => {
    const s = await t.signUp();
    expect((await s.inject({ method: 'GET', url: '/v1/auth/session' })).statusCode).toBe(200);
    const noCsrf = await t.app.inject({ method: 'POST', url: '/v1/auth/logout', headers: { cookie: s.cookie } });
    expect(noCsrf.statusCode).toBe(403);
    const out = await s.inject({ method: 'POST', url: '/v1/auth/logout' });
    expect(out.statusCode).toBe(204);
    expect(out.body).toBe('');
    const cleared = (out.cookies as Cookie[]).map((c) => c.name).sort();
    expect(cleared).toEqual(['ds_csrf', 'ds_session']);
    const after = await s.inject({ method: 'GET', url: '/v1/auth/session' });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('unauthorized');
    expect((await s.inject({ method: 'GET', url: MEMBERS })).statusCode).toBe(401);
  });

  it('a forged or unknown session cookie is a 401', async () => {
    const res = await t.app.inject({ method: 'GET', url: MEMBERS, headers: { cookie: 'ds_session=forged-value' } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer realm=/);
  });

  it('signs in with the right password and gives the same 401 for a wrong password and an unknown e-mail', async () => {
    const s = await t.signUp();
    const login = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: s.email.toUpperCase(), password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const again = sessionFrom(t.app, s.email, login);
    expect(again.workspaceId).toBe(s.workspaceId);
    expect((await again.inject({ method: 'GET', url: MEMBERS })).statusCode).toBe(200);

    const wrong = await t.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: s.email, password: 'wrong password!' } });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: uniqueEmail('nobody'), password: PASSWORD },
    });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.cookies).toHaveLength(0);
    }
    const strip = (b: { error: Record<string, unknown> }) => ({ ...b.error, request_id: undefined });
    expect(strip(wrong.json())).toEqual(strip(unknown.json()));
    expect(wrong.json().error.code).toBe('unauthorized');
  });

  it('signs in to a chosen workspace, and refuses one the user is not a member of with 404', async () => {
    const admin = await t.signUp();
    const viewer = await t.member(admin, 'viewer');
    const login = (workspace_id: string) =>
      t.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: viewer.email, password: PASSWORD, workspace_id } });
    const there = await login(admin.workspaceId);
    expect(there.statusCode).toBe(200);
    expect(there.json().data.workspace).toMatchObject({ id: admin.workspaceId, role: 'viewer' });
    const other = await t.signUp();
    const refused = await login(other.workspaceId);
    expect(refused.statusCode).toBe(404);
    expect(refused.cookies).toHaveLength(0);
    expect((await login('ws_nope')).statusCode).toBe(400);
  });

  it('refuses a sign-up with a weak password or a taken e-mail, and unknown fields', async () => {
    const s = await t.signUp();
    const cases = [
      [{ email: uniqueEmail(), password: 'short' }, 400],
      [{ email: 'not-an-email', password: PASSWORD }, 400],
      [{ email: uniqueEmail(), password: PASSWORD, role: 'admin' }, 400],
      [{ email: s.email.toUpperCase(), password: PASSWORD }, 409],
    ] as const;
    for (const [payload, status] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/auth/signup', payload });
      expect(res.statusCode).toBe(status);
      expect(res.cookies).toHaveLength(0);
    }
  });
});

describe('web sessions behind TLS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { APP_URL: 'https://demos.example.test' } });
  });
  afterAll(() => t?.close());

  it('marks both cookies Secure when APP_URL is https', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email: uniqueEmail(), password: PASSWORD } });
    expect(res.statusCode).toBe(201);
    for (const c of res.cookies as Cookie[]) expect(c.secure).toBe(true);
  });
});

describe('login rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { RATE_LIMIT_LOGIN_PER_MINUTE: 3 } });
  });
  afterAll(() => t?.close());

  it('answers 429 rate_limited with Retry-After once the per-address budget is spent, even for the right password', async () => {
    const email = uniqueEmail();
    const signup = await t.app.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email, password: PASSWORD } });
    expect(signup.statusCode).toBe(201);
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password: 'wrong password!' } });
      expect(res.statusCode).toBe(401);
    }
    const limited = await t.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password: PASSWORD } });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.cookies).toHaveLength(0);
    // Another address has a budget of its own.
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      remoteAddress: '203.0.113.9',
      payload: { email, password: PASSWORD },
    });
    expect(elsewhere.statusCode).toBe(200);
  });
});
