import { mkdirSync } from 'node:fs';
import * as oauth from 'oauth4webapi';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signedInPage } from '../helpers/browser';
import { type CallbackReceiver, startCallbackReceiver } from '../helpers/oauth-callback';
import { startTestServer, type TestServer } from '../helpers/server';
import type { TestSession } from '../helpers/test-app';

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();
// The test server speaks plain HTTP on loopback; oauth4webapi insists on https unless told.
const insecure = { [oauth.allowInsecureRequests]: true };

/**
 * The whole flow as a third party sees it, driven by an independent client library (oauth4webapi) against
 * the running server: an app registered in one workspace, authorised in Chromium by a member of another.
 */
describe.skipIf(!browser)('OAuth for third parties, with oauth4webapi and Chromium', () => {
  let server: TestServer;
  let client: CallbackReceiver;
  let callback: string;
  let received: URL[] = [];

  beforeAll(async () => {
    server = await startTestServer({ selfUrl: true, config: { RATE_LIMIT_LOGIN_PER_MINUTE: 100 } });
    mkdirSync(SHOTS, { recursive: true });
    client = await startCallbackReceiver();
    ({ url: callback, received } = client);
  });
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await server?.close();
  });

  async function join(admin: TestSession, who: TestSession, role: 'viewer') {
    const invited = await admin.inject({ method: 'POST', url: '/v1/team/members', payload: { email: who.email, role } });
    const token = invited.json().data.invitation.url.split('/invite/')[1];
    const accepted = await who.inject({ method: 'POST', url: `/v1/invitations/${token}/accept`, payload: {} });
    expect(accepted.statusCode, accepted.body).toBe(200);
  }

  it('a member of a second workspace authorises an app of the first, picking which workspace to grant', async () => {
    // Workspace one registers the app.
    const owner = await server.signUp();
    const registered = await owner.inject({
      method: 'POST',
      url: '/v1/oauth/apps',
      payload: { name: 'Acme CRM', redirect_uris: [callback], scopes: ['demos:read', 'demos:write', 'team:read'] },
    });
    const { client_id, client_secret } = registered.json().data;

    // The user is admin of their own workspace and a viewer in a third one, where their session is now.
    const user = await server.signUp();
    const third = await server.signUp();
    await join(third, user, 'viewer');

    const issuer = new URL(server.url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    expect(as.authorization_endpoint).toBe(`${server.url}/oauth/authorize`);
    const app: oauth.Client = { client_id };
    const auth = oauth.ClientSecretBasic(client_secret);
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint!);
    authorizationUrl.search = new URLSearchParams({
      client_id,
      redirect_uri: callback,
      response_type: 'code',
      scope: 'demos:read demos:write',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();

    const { context, page } = await signedInPage(browser!, server.url, user, { width: 1280, height: 900 });
    page.setDefaultTimeout(15_000);
    await page.goto(authorizationUrl.toString());
    await page.getByRole('heading', { name: 'Allow Acme CRM to access your workspace?' }).waitFor();
    const ownerName = (await owner.inject({ method: 'GET', url: '/v1/auth/session' })).json().data.workspace.name;
    await page.getByText(`Registered by the workspace “${ownerName}”`).waitFor();
    await page.getByText('Not verified', { exact: true }).waitFor();
    await page.getByText('Create, update and delete demos').waitFor();
    const select = page.getByLabel('Workspace to grant');
    expect(await select.inputValue()).toBe(third.workspaceId);
    // As a viewer there, writing demos is out of reach whatever the scope: the page says so.
    await page.getByText('— not with your role here').waitFor();
    await page.screenshot({ path: `${SHOTS}/oauth-consent-third-party-viewer.png`, fullPage: true });
    await select.selectOption(user.workspaceId);
    await page.getByText('— not with your role here').waitFor({ state: 'detached' });
    await page.getByText(/It can never do more than your role in .* \(admin\) allows/).waitFor();
    await page.screenshot({ path: `${SHOTS}/oauth-consent-third-party.png`, fullPage: true });
    await page.getByRole('button', { name: 'Allow access' }).click();
    await page.waitForURL(`${callback}?**`);
    await context.close();

    const params = oauth.validateAuthResponse(as, app, received.at(-1)!, state);
    const response = await oauth.authorizationCodeGrantRequest(as, app, auth, params, callback, verifier, insecure);
    const tokens = await oauth.processAuthorizationCodeResponse(as, app, response);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'demos:read demos:write' });

    // The grant is bound to the workspace picked, with the user's role there (admin): writing works.
    const created = await oauth.protectedResourceRequest(
      tokens.access_token,
      'POST',
      new URL(`${server.url}/v1/demos`),
      new Headers({ 'content-type': 'application/json' }),
      JSON.stringify({ title: 'From the CRM' }),
      insecure,
    );
    expect(created.status).toBe(201);
    const demoId = ((await created.json()) as { data: { id: string } }).data.id;
    expect((await server.app.inject({ method: 'GET', url: `/v1/demos/${demoId}`, headers: { cookie: owner.cookie } })).statusCode).toBe(404);
    const teamRead = await oauth.protectedResourceRequest(tokens.access_token, 'GET', new URL(`${server.url}/v1/team/members`), undefined, undefined, insecure);
    expect(teamRead.status).toBe(403);

    // Refresh rotates; revocation (RFC 7009) ends the authorisation.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      app,
      await oauth.refreshTokenGrantRequest(as, app, auth, tokens.refresh_token!, insecure),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, app, auth, refreshed.refresh_token!, insecure));
    // The library reads the 401's challenge: invalid_token.
    const after = await oauth
      .protectedResourceRequest(refreshed.access_token, 'GET', new URL(`${server.url}/v1/demos`), undefined, undefined, insecure)
      .catch((error: unknown) => error);
    expect(after).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    expect(after).toMatchObject({ status: 401, cause: [expect.objectContaining({ scheme: 'bearer', parameters: expect.objectContaining({ error: 'invalid_token' }) })] });
    await expect(
      oauth.processRefreshTokenResponse(as, app, await oauth.refreshTokenGrantRequest(as, app, auth, refreshed.refresh_token!, insecure)),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });
  it('lists authorized apps in the account (and for admins, the workspace) and revokes one there', async () => {
    const admin = await server.signUp();
    const registered = await admin.inject({
      method: 'POST',
      url: '/v1/oauth/apps',
      payload: { name: 'Zapier-like', redirect_uris: [callback], scopes: ['demos:read'] },
    });
    const { client_id, client_secret } = registered.json().data;
    const editor = await server.member(admin, 'editor');
    const decided = await editor.inject({
      method: 'POST',
      url: '/v1/oauth/authorize',
      payload: { client_id, redirect_uri: callback, response_type: 'code', scope: 'demos:read', decision: 'allow' },
    });
    const code = new URL(decided.json().data.redirect_to).searchParams.get('code')!;
    const tokenRes = await fetch(`${server.url}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id, client_secret, redirect_uri: callback }),
    });
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const use = () => fetch(`${server.url}/v1/demos`, { headers: { authorization: `Bearer ${access_token}` } });
    expect((await use()).status).toBe(200);

    // The admin sees the editor's authorisation under Settings → API → OAuth apps.
    const adminView = await signedInPage(browser!, server.url, admin, { width: 1280, height: 900 });
    await adminView.page.goto(`${server.url}/settings/api/oauth`);
    const workspaceTable = adminView.page.getByRole('table', { name: 'Authorized apps in this workspace' });
    await workspaceTable.getByText(editor.email).waitFor();
    await adminView.page.screenshot({ path: `${SHOTS}/oauth-authorized-apps-admin.png`, fullPage: true });
    await adminView.context.close();

    // The editor sees it in their account, last used just now, and revokes it.
    const { context, page } = await signedInPage(browser!, server.url, editor, { width: 1280, height: 900 });
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/account`);
    const mine = page.getByRole('table', { name: 'Your authorized apps' });
    await mine.getByText('Zapier-like').waitFor();
    await mine.getByText('demos:read').waitFor();
    await page.getByRole('heading', { name: 'Authorized apps' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/oauth-authorized-apps-account.png`, fullPage: true });
    await mine.getByRole('button', { name: /^Revoke Zapier-like in / }).click();
    await page.getByRole('dialog', { name: 'Revoke Zapier-like?' }).getByRole('button', { name: 'Revoke access' }).click();
    await page.getByText('You have not authorized any application.').waitFor();
    await context.close();
    expect((await use()).status).toBe(401);
  });
});
