import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config';
import { createTestApp, sessionFrom, type TestApp, uniqueEmail } from './helpers/test-app';

const PASSWORD = 'correct horse battery staple';

/** SIGNUP over HTTP: what the public policy route says, and which sign-ups each mode lets in. */
function withApp(config: Partial<Config>) {
  const ref = {} as { t: TestApp };
  beforeAll(async () => {
    ref.t = await createTestApp({ config });
  });
  afterAll(() => ref.t?.close());
  return ref;
}

const policyOf = async (t: TestApp) => {
  const res = await t.app.inject({ method: 'GET', url: '/v1/auth/signup-policy' });
  expect(res.statusCode).toBe(200);
  return res.json().data;
};
const signUp = (t: TestApp, email: string, extra: Record<string, unknown> = {}) =>
  t.app.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email, password: PASSWORD, ...extra } });
const users = async (t: TestApp) => Number((await t.ctx.database.executeSql('select count(*)::int as n from users', [])).rows[0]!.n);

describe('sign-up open (the default)', () => {
  const app = withApp({});

  it('says so, and lets anyone sign up', async () => {
    const { t } = app;
    expect(await policyOf(t)).toEqual({ mode: 'open', allowed_domains: [], first_account: true, email_delivery: false });
    expect((await signUp(t, uniqueEmail('anyone'))).statusCode).toBe(201);
    expect((await signUp(t, 'someone@elsewhere.test')).statusCode).toBe(201);
    expect(await policyOf(t)).toEqual({ mode: 'open', allowed_domains: [], first_account: false, email_delivery: false });
  });
});

describe('sign-up by invitation', () => {
  const app = withApp({ SIGNUP: 'invite' });

  it('lets the first account of an empty server in, then only invitations', async () => {
    const { t } = app;
    expect(await policyOf(t)).toEqual({ mode: 'invite', allowed_domains: [], first_account: true, email_delivery: false });
    const first = await signUp(t, uniqueEmail('operator'));
    expect(first.statusCode).toBe(201);
    expect(await policyOf(t)).toMatchObject({ first_account: false, email_delivery: false });

    const refused = await signUp(t, uniqueEmail('stranger'), { name: 'Stranger' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/^Sign-up on this server is by invitation only: ask an admin of a workspace on this server to invite you/),
    });
    expect(refused.cookies).toHaveLength(0);
    // An address that has an account gets the same 403, not the 409 that would say so.
    const taken = await signUp(t, first.json().data.user.email);
    expect(taken.statusCode).toBe(403);
    expect(taken.json().error.message).toBe(refused.json().error.message);
    expect(await users(t)).toBe(1);

    // Through an invitation link: in, and signing in works as ever.
    const session = sessionFrom(t.app, first.json().data.user.email, first);
    const invitedEmail = uniqueEmail('invited');
    const invited = await session.inject({ method: 'POST', url: '/v1/team/members', payload: { email: invitedEmail, role: 'editor' } });
    expect(invited.statusCode).toBe(201);
    const token = invited.json().data.invitation.url.split('/invite/')[1];
    expect((await signUp(t, invitedEmail, { invitation_token: token })).statusCode).toBe(201);
    expect((await t.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: invitedEmail, password: PASSWORD } })).statusCode).toBe(200);

    // The operator's `demoshare users create` vouches for the address: SIGNUP does not apply to it.
    await t.ctx.services.accounts.accounts.createAccount({ email: uniqueEmail('by-operator'), password: PASSWORD, verifiedByOperator: true });
    expect(await users(t)).toBe(3);
  });

  it('refuses bad input with 400 before the policy, and changes nothing', async () => {
    const { t } = app;
    const res = await t.app.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email: 'not an address', password: PASSWORD } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid_request');
  });
});

describe('the first account, asked for twice at once', () => {
  const app = withApp({ SIGNUP: 'invite' });

  it('goes to one of them: the other is refused', async () => {
    const { t } = app;
    const both = await Promise.all([signUp(t, uniqueEmail('first-a')), signUp(t, uniqueEmail('first-b'))]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 403]);
    expect(await users(t)).toBe(1);
  });
});

describe('sign-up limited to e-mail domains', () => {
  const app = withApp({ SIGNUP: 'domains', SIGNUP_ALLOWED_DOMAINS: ['example.com', 'corp.example'] });

  it('lets in the listed domains exactly, and anyone invited', async () => {
    const { t } = app;
    expect(await policyOf(t)).toEqual({ mode: 'domains', allowed_domains: ['example.com', 'corp.example'], first_account: true, email_delivery: false });
    // The first account of an empty server, at any address.
    const first = await signUp(t, 'operator@elsewhere.test');
    expect(first.statusCode).toBe(201);

    expect((await signUp(t, uniqueEmail('staff'))).statusCode).toBe(201);
    expect((await signUp(t, `Someone.${Date.now()}@CORP.example`)).statusCode).toBe(201);
    for (const email of [`a.${Date.now()}@sub.example.com`, `b.${Date.now()}@example.com.evil.test`, `c.${Date.now()}@elsewhere.test`]) {
      const refused = await signUp(t, email);
      expect(refused.statusCode, email).toBe(403);
      expect(refused.json().error).toMatchObject({
        code: 'forbidden',
        message: expect.stringMatching(/^Sign-up on this server is open to addresses at example\.com and corp\.example only: .*invite you/),
      });
    }

    const guest = `guest.${Date.now()}@elsewhere.test`;
    const invited = await sessionFrom(t.app, 'operator@elsewhere.test', first).inject({
      method: 'POST',
      url: '/v1/team/members',
      payload: { email: guest, role: 'viewer' },
    });
    expect(invited.statusCode).toBe(201);
    const token = invited.json().data.invitation.url.split('/invite/')[1];
    expect((await signUp(t, guest, { invitation_token: token })).statusCode).toBe(201);
    expect(await users(t)).toBe(4);
  });
});
