import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../src/auth/permissions';
import { createHttpBackend } from '../src/mcp/mcp-http.backend';
import { createMcpServer } from '../src/mcp/mcp-server';
import { TOOLS } from '../src/mcp/mcp-tools';
import { fixtureGenerator } from './helpers/demos';
import { callError, callJson, newClient, rest, TOOL_NAMES } from './helpers/mcp';
import { SCOPES } from '../src/auth/permissions';
import { startTestServer, type TestServer } from './helpers/server';
import { createShare, demoWithSteps, playView } from './helpers/shares';
import type { TestSession } from './helpers/test-app';

const REDIRECT = 'https://assistant.example.com/callback';

describe('MCP server over Streamable HTTP (/mcp)', { timeout: 120_000 }, () => {
  let t: TestServer;
  let admin: TestSession;
  let key: string;
  const clients: Client[] = [];

  async function connect(token: string) {
    const client = newClient();
    const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    t = await startTestServer({ jobs: true, selfUrl: true, generator: fixtureGenerator(3, 'Acme pricing') });
    admin = await t.signUp();
    key = await t.apiKey('all', admin);
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => {});
    await t?.close();
  });

  it('lists every tool with a description naming its scope and a JSON schema of its input', async () => {
    const client = await connect(key);
    expect(client.getServerVersion()?.name).toBe('demoshare');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      const definition = TOOLS.find((d) => d.name === tool.name)!;
      expect(tool.description).toContain(`Requires the ${PERMISSIONS[definition.permission].scope} scope.`);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(definition.readOnly);
    }
    const create = tools.find((tool) => tool.name === 'create_demo_from_url')!;
    expect(create.inputSchema.required).toEqual(['source_url']);
    expect(create.inputSchema.additionalProperties).toBe(false);
  });

  it('creates a demo from a URL, follows its generation to the end, reads, publishes and shares it', async () => {
    const client = await connect(key);
    const started = await callJson(client, 'create_demo_from_url', { source_url: 'https://example.com/pricing' });
    expect(started).toMatchObject({ demo_status: 'generating', done: false, title: 'example.com/pricing' });
    expect(started.generation_status).toMatch(/queued|running/);
    const demoId = started.demo_id as string;

    // Progress notifications come while the call waits, when the client asks for them.
    const stages: number[] = [];
    let report: Record<string, unknown> = {};
    for (let i = 0; i < 5 && !report.done; i++) {
      const result = await client.callTool(
        { name: 'get_generation_status', arguments: { demo_id: demoId, wait_seconds: 30 } },
        undefined,
        { onprogress: (p) => stages.push(p.progress), timeout: 60_000 },
      );
      report = JSON.parse((result.content as Array<{ text: string }>)[0]!.text);
    }
    expect(report).toMatchObject({ done: true, generation_status: 'succeeded', demo_status: 'draft', step_count: 3, error: null });
    expect(stages.at(-1)).toBe(2);

    // Each answer is the REST route's data, field for field.
    const demo = await callJson(client, 'get_demo', { demo_id: demoId });
    expect(demo).toEqual((await rest(t.url, key, 'GET', `/demos/${demoId}`)).body.data);
    expect(demo).toMatchObject({ title: 'Acme pricing', status: 'draft' });
    expect((demo.steps as unknown[]).length).toBe(3);

    const found = await callJson<{ data: Array<{ id: string }>; meta: { total: number } }>(client, 'list_demos', { search: 'ACME' });
    expect(found.data.map((d) => d.id)).toEqual([demoId]);
    expect(found.meta).toEqual({ total: 1, page: 1, per_page: 20 });
    const listed = (await rest(t.url, key, 'GET', '/demos?search=ACME')).body.data;
    expect(found.data).toEqual(listed);
    expect((await callJson(client, 'list_demos', { status: 'published' })).data).toEqual([]);

    const published = await callJson(client, 'publish_demo', { demo_id: demoId });
    expect(published).toMatchObject({ id: demoId, status: 'published', published_version: 1 });

    const share = await callJson(client, 'create_share_link', { demo_id: demoId, name: 'For Acme', require_identification: true });
    expect(share).toMatchObject({ demo_id: demoId, name: 'For Acme', require_identification: true, has_password: false });
    expect(share.url).toBe(`${t.url}/s/${(share.url as string).split('/s/')[1]}`);
    const links = await callJson<{ data: unknown[] }>(client, 'list_share_links', { demo_id: demoId });
    expect(links.data).toEqual((await rest(t.url, key, 'GET', `/demos/${demoId}/shares`)).body.data);
    expect((await callJson(client, 'get_demo', { demo_id: demoId })).share_url).toBe(share.url);

    // A viewer plays it; analytics and views tell it.
    const token = (share.url as string).split('/s/')[1]!;
    await playView(t, token, { email: 'lee@prospect.example', name: 'Lee', reached: 3, complete: true });
    let views: { data: Array<Record<string, unknown>>; meta: { total: number } } = { data: [], meta: { total: 0 } };
    for (let i = 0; i < 100 && views.meta.total === 0; i++) {
      views = await callJson(client, 'list_views', { demo_id: demoId });
      if (views.meta.total === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(views.data[0]).toMatchObject({ demo_id: demoId, completed: true, viewer: { email: 'lee@prospect.example', name: 'Lee' } });
    expect(views.data).toEqual((await rest(t.url, key, 'GET', `/demos/${demoId}/views`)).body.data);
    expect((await callJson(client, 'list_views', { demo_id: demoId, viewer_email: 'nobody@example.com' })).data).toEqual([]);

    const analytics = await callJson(client, 'get_demo_analytics', { demo_id: demoId, granularity: 'day' });
    expect(analytics).toMatchObject({ total_views: 1, unique_viewers: 1, completion_rate: 1 });
    expect(analytics).toEqual((await rest(t.url, key, 'GET', `/demos/${demoId}/analytics?granularity=day`)).body.data);
    const paths = await callJson(client, 'get_demo_paths', { demo_id: demoId });
    expect(paths).toMatchObject({ total_views: 1 });
    expect(paths).toEqual((await rest(t.url, key, 'GET', `/demos/${demoId}/analytics/paths`)).body.data);
    const overview = await callJson(client, 'get_analytics_overview', {});
    expect(overview).toMatchObject({ total_views: 1, top_demos: [expect.objectContaining({ demo_id: demoId, views: 1 })] });
    expect(overview).toEqual((await rest(t.url, key, 'GET', '/analytics')).body.data);
  });

  it('answers the API’s error code and message as a tool error', async () => {
    const client = await connect(key);
    const missing = 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w';
    const error = await callError(client, 'get_demo', { demo_id: missing });
    const answered = (await rest(t.url, key, 'GET', `/demos/${missing}`)).body.error!;
    expect(error).toEqual({ code: answered.code, message: answered.message });
    expect(error.code).toBe('not_found');
    const range = await callError(client, 'get_analytics_overview', { start_date: '2026-02-01', end_date: '2026-01-01' });
    expect(range).toMatchObject({ code: 'invalid_request', message: 'end_date is before start_date' });
    // Input the schema refuses never reaches a service.
    const bad = (await client.callTool({ name: 'get_demo', arguments: { demo_id: 'nope' } })) as { isError?: boolean; content: Array<{ text: string }> };
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toContain('demo_id');
  });

  it('refuses a tool whose scope the credential lacks exactly as the REST route does, and allows the rest', async () => {
    const readerKey = await t.apiKey(['demos:read'], admin);
    const reader = await connect(readerKey);
    const viaRest = (await rest(t.url, readerKey, 'POST', '/demos', { source_url: 'https://example.com/x', generate_with_ai: true })).body.error!;
    const viaTool = await callError(reader, 'create_demo_from_url', { source_url: 'https://example.com/x' });
    expect(viaTool).toMatchObject({ code: 'insufficient_scope', message: viaRest.message });
    expect(viaRest.code).toBe('insufficient_scope');
    for (const [name, args, scope] of [
      ['get_analytics_overview', {}, 'analytics:read'],
      ['list_share_links', { demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w' }, 'shares:read'],
      ['create_share_link', { demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w' }, 'shares:write'],
      ['publish_demo', { demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w' }, 'demos:write'],
    ] as const) {
      expect(await callError(reader, name, args)).toMatchObject({ code: 'insufficient_scope', message: `This credential lacks the scope ${scope}` });
    }
    expect((await callJson(reader, 'list_demos')).meta).toMatchObject({ page: 1 });

    // Rights are scopes ∩ role: a viewer's key with every scope still only reads.
    const viewer = await t.member(admin, 'viewer');
    const viewerKey = await t.apiKey('all', viewer);
    const asViewer = await connect(viewerKey);
    const refused = await callError(asViewer, 'create_demo_from_url', { source_url: 'https://example.com/x' });
    const restRefused = (await rest(t.url, viewerKey, 'POST', '/demos', { source_url: 'https://example.com/x', generate_with_ai: true })).body.error!;
    expect(refused).toEqual({ code: 'forbidden', message: restRefused.message });
    expect((await callJson(asViewer, 'list_demos')).meta).toMatchObject({ total: 1 });
  });

  it('accepts an OAuth access token, with the rights of its scopes', async () => {
    const app = await admin.inject({
      method: 'POST',
      url: '/v1/oauth/apps',
      payload: { name: 'Assistant', redirect_uris: [REDIRECT], scopes: ['demos:read', 'analytics:read'] },
    });
    expect(app.statusCode).toBe(201);
    const { client_id, client_secret } = app.json().data as { client_id: string; client_secret: string };
    const consent = await admin.inject({
      method: 'POST',
      url: '/v1/oauth/authorize',
      payload: { client_id, redirect_uri: REDIRECT, response_type: 'code', scope: 'demos:read', state: 's', decision: 'allow' },
    });
    expect(consent.statusCode, consent.body).toBe(200);
    const code = new URL(consent.json().data.redirect_to).searchParams.get('code')!;
    const tokens = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'authorization_code', code, client_id, client_secret, redirect_uri: REDIRECT }).toString(),
    });
    expect(tokens.statusCode, tokens.body).toBe(200);
    const accessToken = tokens.json().access_token as string;
    expect(accessToken).toMatch(/^dsa_/);

    const client = await connect(accessToken);
    expect((await callJson<{ data: unknown[] }>(client, 'list_demos')).data).toHaveLength(1);
    expect(await callError(client, 'get_analytics_overview')).toMatchObject({ code: 'insufficient_scope' });
  });

  it('lets the SDK’s own OAuth client sign in from the 401: discovery, consent, code with PKCE, token', async () => {
    const created = await admin.inject({
      method: 'POST',
      url: '/v1/oauth/apps',
      // The SDK's client asks for every scope the resource metadata lists (scopes_supported), whatever its own
      // metadata says: the app may ask for all of them, the user's role still bounds what a token can do.
      payload: { name: 'MCP client', redirect_uris: [REDIRECT], scopes: [...SCOPES] },
    });
    expect(created.statusCode).toBe(201);
    const { client_id, client_secret } = created.json().data as { client_id: string; client_secret: string };
    let tokens: OAuthTokens | undefined;
    let verifier = '';
    let authorizationUrl: URL | undefined;
    const provider: OAuthClientProvider = {
      redirectUrl: REDIRECT,
      clientMetadata: { redirect_uris: [REDIRECT], client_name: 'MCP client', scope: 'demos:read' },
      clientInformation: () => ({ client_id, client_secret }),
      tokens: () => tokens,
      saveTokens: (saved) => {
        tokens = saved;
      },
      redirectToAuthorization: (url) => {
        authorizationUrl = url;
      },
      saveCodeVerifier: (saved) => {
        verifier = saved;
      },
      codeVerifier: () => verifier,
    };
    const endpoint = new URL(`${t.url}/mcp`);
    const first = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
    await expect(newClient().connect(first)).rejects.toThrow(UnauthorizedError);
    expect(authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');

    // The user approves on the consent page (here its API call); the client gets the code at its redirect URI.
    const query = Object.fromEntries(authorizationUrl!.searchParams);
    const consent = await admin.inject({ method: 'POST', url: '/v1/oauth/authorize', payload: { ...query, decision: 'allow' } });
    expect(consent.statusCode, consent.body).toBe(200);
    await first.finishAuth(new URL(consent.json().data.redirect_to).searchParams.get('code')!);
    expect(tokens?.access_token).toMatch(/^dsa_/);

    const client = newClient();
    await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: provider }));
    clients.push(client);
    expect((await callJson<{ data: unknown[] }>(client, 'list_demos')).data).toHaveLength(1);
  });

  it('answers 401 with the resource metadata challenge without a credential, or with a bad one', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(`${t.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(initialize),
      });
    const metadata = `${t.url}/.well-known/oauth-protected-resource/mcp`;

    const none = await post({});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadata}"`);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('unauthorized');

    const wrong = await post({ authorization: 'Bearer dsk_not_a_real_key' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(new RegExp(`^Bearer resource_metadata="${metadata}", error="invalid_token"`));

    const basic = await post({ authorization: 'Basic YTpi' });
    expect(basic.status).toBe(401);
    expect(basic.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${metadata}", error="invalid_token", error_description="Authorization header must be 'Bearer <token>'"`,
    );

    // A page of another origin (DNS rebinding) is refused even with a credential; the app's own origin is not.
    const foreign = await post({ authorization: `Bearer ${key}`, origin: 'http://attacker.example' });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe('forbidden');
    const own = await post({ authorization: `Bearer ${key}`, origin: t.url });
    expect(own.status).toBe(200);
    await own.body?.cancel();

    // The web app's session cookie is no credential here (no CSRF to answer for).
    expect((await post({ cookie: admin.cookie, 'x-csrf-token': admin.csrf })).status).toBe(401);

    const ok = await post({ authorization: `Bearer ${key}` });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(ok.headers.get('x-request-id')).toMatch(/^req_/);
    await ok.body?.cancel();

    // Stateless: no SSE stream to open, no session to end.
    expect((await fetch(`${t.url}/mcp`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(405);
  });

  it('starts an A/B test on a link, reads its results and stops it keeping a winner, as the REST routes do', async () => {
    // A workspace of its own: the tests above count this workspace's demos.
    const owner = await t.signUp();
    const ownerKey = await t.apiKey('all', owner);
    const client = await connect(ownerKey);
    const control = { id: await demoWithSteps(t, ownerKey, 2) };
    const variant = { id: await demoWithSteps(t, ownerKey, 3) };
    const share = await createShare(t, ownerKey, control.id);

    const started = await callJson(client, 'start_ab_test', {
      share_id: share.id,
      name: 'Short tour vs full tour',
      metric: 'cta_click',
      arms: [
        { demo_id: control.id, weight: 1 },
        { demo_id: variant.id, weight: 3, label: 'Full tour' },
      ],
    });
    expect(started).toMatchObject({ share_id: share.id, name: 'Short tour vs full tour', metric: 'cta_click', status: 'running', winner_arm_id: null });
    expect((started.arms as Array<{ share: number }>).map((a) => a.share)).toEqual([0.25, 0.75]);
    expect(started).toEqual((await rest(t.url, ownerKey, 'GET', `/shares/${share.id}/experiment`)).body.data);
    // One test at a time: the API's 409, as a tool error.
    const again = await callError(client, 'start_ab_test', { share_id: share.id, arms: [{ demo_id: control.id, weight: 1 }, { demo_id: variant.id, weight: 1 }] });
    expect(again.code).toBe('conflict');

    const results = await callJson(client, 'get_ab_test_results', { share_id: share.id });
    expect(results).toEqual((await rest(t.url, ownerKey, 'GET', `/shares/${share.id}/experiment/results`)).body.data);
    expect((results.arms as Array<{ label: string; views: number }>).map((a) => [a.label, a.views])).toEqual([
      ['Secret roadmap tour', 0],
      ['Full tour', 0],
    ]);
    expect(results.significance).toMatchObject({ verdict: 'too_small' });

    // No winner named yet: stopping without one is refused; with one, the link keeps it.
    expect((await callError(client, 'stop_ab_test', { share_id: share.id })).code).toBe('conflict');
    const winner = (started.arms as Array<{ id: string }>)[1]!.id;
    const stopped = await callJson(client, 'stop_ab_test', { share_id: share.id, winner_arm_id: winner });
    expect(stopped).toMatchObject({ status: 'stopped', winner_arm_id: winner });
    expect(stopped).toEqual((await rest(t.url, ownerKey, 'GET', `/shares/${share.id}/experiment`)).body.data);

    // A key that may read analytics but not change links reads the results and is refused the rest.
    const readerKey = await t.apiKey(['analytics:read'], owner);
    const reader = await connect(readerKey);
    expect((await callJson(reader, 'get_ab_test_results', { share_id: share.id })).experiment).toEqual(stopped);
    expect(await callError(reader, 'stop_ab_test', { share_id: share.id, winner_arm_id: null })).toMatchObject({
      code: 'insufficient_scope',
      message: 'This credential lacks the scope shares:write',
    });
  });

  it('lists a link’s A/B tests and reads an earlier one’s results by id, in process and over the REST API alike', async () => {
    const owner = await t.signUp();
    const ownerKey = await t.apiKey('all', owner);
    const inProcess = await connect(ownerKey);
    // `demoshare mcp`'s backend (the instance's REST API over HTTP), on an in-memory transport instead of stdio.
    const overRest = newClient();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(createHttpBackend({ url: t.url, token: ownerKey, userAgent: 'mcp-test' }), {}).connect(serverSide);
    await overRest.connect(clientSide);
    clients.push(overRest);

    const a = await demoWithSteps(t, ownerKey, 2);
    const b = await demoWithSteps(t, ownerKey, 2);
    const share = await createShare(t, ownerKey, a);
    const arms = [{ demo_id: a, weight: 1 }, { demo_id: b, weight: 1 }];
    const first = await callJson(inProcess, 'start_ab_test', { share_id: share.id, name: 'First', arms });
    for (let i = 0; i < 6; i++) await playView(t, share.token, { reached: 2, complete: i % 2 === 0, ip: `198.51.100.${i + 1}` });
    const kept = (first.arms as Array<{ id: string }>)[0]!.id;
    await callJson(inProcess, 'stop_ab_test', { share_id: share.id, winner_arm_id: kept });
    const firstResults = await callJson(inProcess, 'get_ab_test_results', { share_id: share.id });
    const second = await callJson(overRest, 'start_ab_test', { share_id: share.id, name: 'Second', arms });
    await callJson(overRest, 'stop_ab_test', { share_id: share.id, winner_arm_id: null });

    const listed = (await rest(t.url, ownerKey, 'GET', `/shares/${share.id}/experiments`)).body.data as Array<{ id: string }>;
    expect(listed.map((x) => x.id)).toEqual([second.id, first.id]);
    for (const client of [inProcess, overRest]) {
      expect(await callJson(client, 'list_ab_tests', { share_id: share.id })).toEqual({ data: listed, meta: { total: 2, page: 1, per_page: 20 } });
      expect(await callJson(client, 'list_ab_tests', { share_id: share.id, per_page: 1, page: 2 })).toEqual({ data: [listed[1]], meta: { total: 2, page: 2, per_page: 1 } });
      // The earlier test's results by id: what they were while it was the newest, as the REST route answers them.
      const earlier = await callJson(client, 'get_ab_test_results', { share_id: share.id, experiment_id: first.id });
      expect(earlier).toEqual(firstResults);
      expect(earlier).toEqual((await rest(t.url, ownerKey, 'GET', `/shares/${share.id}/experiments/${first.id}/results`)).body.data);
      expect((earlier.experiment as { winner_arm_id: string }).winner_arm_id).toBe(kept);
      // Left out: the newest.
      expect(((await callJson(client, 'get_ab_test_results', { share_id: share.id })).experiment as { id: string }).id).toBe(second.id);
      // An experiment of another link is none of this one's.
      const other = await createShare(t, ownerKey, a);
      expect(await callError(client, 'get_ab_test_results', { share_id: other.id, experiment_id: first.id })).toMatchObject({
        code: 'not_found',
        message: 'Experiment not found',
      });
      expect(await callJson(client, 'list_ab_tests', { share_id: other.id })).toEqual({ data: [], meta: { total: 0, page: 1, per_page: 20 } });
    }
    const figures = (firstResults.arms as Array<{ views: number }>).reduce((sum, arm) => sum + arm.views, 0);
    expect(figures).toBe(6);
  });
});

describe('MCP over HTTP and the API rate limit', { timeout: 120_000 }, () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ config: { RATE_LIMIT_PER_MINUTE: 3 } });
  });
  afterAll(() => t?.close());

  it('spends the credential’s API budget: REST calls and MCP requests together, then a 429', async () => {
    const key = await t.apiKey(['demos:read']);
    expect((await rest(t.url, key, 'GET', '/demos')).status).toBe(200);
    const post = () =>
      fetch(`${t.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const first = await post();
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    await first.body?.cancel();
    expect((await rest(t.url, key, 'GET', '/demos')).status).toBe(200);
    const limited = await post();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
  });
});

describe('docs/mcp.md', () => {
  it('lists every tool with the scope and roles of its permission, in the order of TOOLS', () => {
    const doc = readFileSync(new URL('../docs/mcp.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z_]+)` \| `([a-z:]+)` \| ([a-z, ]+) \|/gm)].map((m) => [m[1], m[2], m[3]]);
    expect(rows).toEqual(
      TOOLS.map((tool) => [tool.name, PERMISSIONS[tool.permission].scope, PERMISSIONS[tool.permission].roles.join(', ')]),
    );
  });
});
