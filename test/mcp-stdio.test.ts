import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, CLI, REPO, runCli } from './helpers/cli';
import { fixtureGenerator } from './helpers/demos';
import { callError, callJson, newClient, rest, TOOL_NAMES } from './helpers/mcp';
import { startTestServer, type TestServer } from './helpers/server';
import type { TestSession } from './helpers/test-app';

// Each `demoshare mcp` is a fresh Node process compiling TypeScript: slow on a busy machine.
describe('demoshare mcp (stdio) against a running server over its REST API', { timeout: 300_000 }, () => {
  let t: TestServer;
  let admin: TestSession;
  let key: string;
  const clients: Client[] = [];
  const stderr: string[] = [];

  async function spawnMcp(apiKey: string) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      cwd: REPO,
      env: cleanEnv({ DEMOSHARE_URL: t.url, DEMOSHARE_API_KEY: apiKey }) as Record<string, string>,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d) => stderr.push(String(d)));
    const client = newClient();
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    t = await startTestServer({ jobs: true, selfUrl: true, generator: fixtureGenerator(2, 'Stdio pricing') });
    admin = await t.signUp();
    key = await t.apiKey('all', admin);
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => {});
    await t?.close();
  });

  it('serves the same tools, generates a demo to the end and shares it through the instance’s API', async () => {
    const client = await spawnMcp(key);
    expect(client.getServerVersion()?.name).toBe('demoshare');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);

    const started = await callJson(client, 'create_demo_from_url', { source_url: 'https://example.com/stdio' });
    expect(started).toMatchObject({ demo_status: 'generating', done: false });
    let report: Record<string, unknown> = {};
    for (let i = 0; i < 5 && !report.done; i++) {
      report = await callJson(client, 'get_generation_status', { demo_id: started.demo_id, wait_seconds: 30 });
    }
    expect(report).toMatchObject({ done: true, generation_status: 'succeeded', step_count: 2 });

    const demoId = started.demo_id as string;
    const demo = await callJson(client, 'get_demo', { demo_id: demoId });
    expect(demo).toEqual((await rest(t.url, key, 'GET', `/demos/${demoId}`)).body.data);
    const found = await callJson<{ data: Array<{ id: string }>; meta: unknown }>(client, 'list_demos', { search: 'stdio' });
    expect(found).toEqual({ data: [expect.objectContaining({ id: demoId })], meta: { total: 1, page: 1, per_page: 20 } });
    expect(await callJson(client, 'publish_demo', { demo_id: demoId })).toMatchObject({ status: 'published' });
    const share = await callJson(client, 'create_share_link', { demo_id: demoId, password: 'open sesame' });
    expect(share).toMatchObject({ demo_id: demoId, has_password: true });
    expect(JSON.stringify(share)).not.toContain('open sesame');
    expect((await callJson<{ data: unknown[] }>(client, 'list_share_links', { demo_id: demoId })).data).toHaveLength(1);
    expect(await callJson(client, 'get_demo_analytics', { demo_id: demoId, include_internal: true })).toMatchObject({ total_views: 0 });
    expect(await callJson(client, 'get_demo_paths', { demo_id: demoId })).toMatchObject({ total_views: 0, chapters: [] });
    expect(await callJson(client, 'get_analytics_overview', { start_date: '2026-01-01' })).toMatchObject({ total_views: 0 });
    expect(await callJson(client, 'list_views', { demo_id: demoId, per_page: 5 })).toEqual({ data: [], meta: { total: 0, page: 1, per_page: 5 } });
  });

  it('is refused what the key may not do, with the API’s code and message', async () => {
    const readerKey = await t.apiKey(['demos:read'], admin);
    const client = await spawnMcp(readerKey);
    const viaRest = (await rest(t.url, readerKey, 'GET', '/analytics')).body.error!;
    expect(await callError(client, 'get_analytics_overview')).toMatchObject({ code: 'insufficient_scope', message: viaRest.message });
    expect(await callError(client, 'get_demo', { demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w' })).toMatchObject({
      code: 'not_found',
      message: 'Demo not found',
    });
  });

  it('says what is missing without a key, and a revoked or wrong key is the API’s 401', async () => {
    const missing = await runCli(['mcp'], cleanEnv({ DEMOSHARE_URL: t.url }));
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('DEMOSHARE_API_KEY is required');

    const client = await spawnMcp('dsk_wrong');
    expect(await callError(client, 'list_demos')).toMatchObject({ code: 'unauthorized' });
  });
});
