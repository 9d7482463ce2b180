import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveKey, unseal } from '../src/core/crypto';
import { AddressPolicy } from '../src/core/net/address-policy';
import { SafeFetch } from '../src/core/net/safe-fetch';
import { createGenerator } from '../src/generation';
import { type ChatServer, startChatServer } from './helpers/chat-server';
import { waitForDemo } from './helpers/demos';
import { testDocumentPool } from './helpers/documents';
import { type ForbiddenServer, startForbiddenServer, startTestSite, type TestSite } from './helpers/site-server';
import { bearer, createTestApp, TEST_SECRET, type TestApp, type TestSession } from './helpers/test-app';

describe('AI settings in the app (Settings → AI), against a local chat-completions server', () => {
  let t: TestApp;
  let chat: ChatServer;
  let forbidden: ForbiddenServer;
  let site: TestSite;
  let admin: TestSession;
  let editor: TestSession;
  const generationNet = new SafeFetch(AddressPolicy.fromList('127.0.0.1/32'));
  const documents = testDocumentPool();
  const generator = createGenerator({ net: generationNet, documents, chromiumPath: null });

  beforeAll(async () => {
    chat = await startChatServer();
    forbidden = await startForbiddenServer();
    site = await startTestSite(forbidden);
    t = await createTestApp({
      jobs: true,
      // The chat server and the site run on this machine: opened as an operator would for a local model.
      config: { ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32' },
      generator: (options) => generator.generate(options),
    });
    admin = await t.signUp();
    editor = await t.member(admin, 'editor');
  });
  afterAll(async () => {
    await t?.close();
    await generator.close();
    await generationNet.close();
    await documents.close();
    await site?.close();
    await forbidden?.close();
    await chat?.close();
  });

  const settings = (session: TestSession, method: 'GET' | 'PUT' | 'DELETE', payload?: object) =>
    session.inject({ method, url: '/v1/workspace/ai', ...(payload ? { payload } : {}) });
  const test = (session: TestSession, payload?: object) => session.inject({ method: 'POST', url: '/v1/workspace/ai/test', ...(payload ? { payload } : {}) });
  const rawRow = async (workspaceId: string) =>
    (await t.ctx.database.executeSql('select * from ai_settings where workspace_id = $1', [workspaceId])).rows[0] as Record<string, string> | undefined;

  it('starts with none set up, and refuses to rewrite a step until a model is, saying where to set one up', async () => {
    const res = await settings(admin, 'GET');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ source: 'none', base_url: null, model: null, key_set: false, key_last4: null, updated_at: null, instance: null });
    expect((await test(admin)).statusCode).toBe(409);
  });

  it('saves the address, model and key; never returns the key, and stores it sealed', async () => {
    const res = await settings(admin, 'PUT', { base_url: `${chat.baseUrl}/`, model: 'good', key: 'sk-good' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ source: 'workspace', base_url: chat.baseUrl, model: 'good', key_set: true, key_last4: 'good' });
    expect(res.body).not.toContain('sk-good');
    expect((await settings(admin, 'GET')).body).not.toContain('sk-good');

    const row = (await rawRow(admin.workspaceId))!;
    expect(JSON.stringify(row)).not.toContain('sk-good');
    expect(row.key_sealed).toMatch(/^v1\./);
    expect(unseal(deriveKey(TEST_SECRET, 'sealing'), row.key_sealed!)).toBe('sk-good');

    const audit = (await admin.inject({ method: 'GET', url: '/v1/audit-log?action=workspace.changed' })).json().data;
    expect(audit[0].changes).toMatchObject({ 'ai.base_url': { from: null, to: chat.baseUrl }, 'ai.model': { from: null, to: 'good' } });
    expect(JSON.stringify(audit)).not.toContain('sk-good');
  });

  it('keeps the saved key when it is left out on the same host, and asks for it again for another host', async () => {
    const same = await settings(admin, 'PUT', { base_url: chat.baseUrl, model: 'good' });
    expect(same.statusCode).toBe(200);
    expect(same.json().data.key_last4).toBe('good');
    const moved = await settings(admin, 'PUT', { base_url: 'http://127.0.0.1:1/v1', model: 'good' });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().error.details).toEqual([{ field: 'key', message: 'Required when base_url changes host' }]);
    expect((await rawRow(admin.workspaceId))!.base_url).toBe(chat.baseUrl);
  });

  it('refuses bad input with a 400 that changes nothing: a private address the operator did not open, a bad scheme, unknown fields', async () => {
    const before = await rawRow(admin.workspaceId);
    const privateAddress = await settings(admin, 'PUT', { base_url: 'http://10.1.2.3/v1', model: 'good', key: 'sk-other' });
    expect(privateAddress.statusCode).toBe(400);
    expect(privateAddress.json().error.message).toMatch(/10\.1\.2\.3 is a private address.*ALLOW_PRIVATE_NETWORK_CIDRS/);
    expect(privateAddress.json().error.details[0].field).toBe('base_url');
    expect((await settings(admin, 'PUT', { base_url: 'ftp://example.com/v1', model: 'good', key: 'k' })).statusCode).toBe(400);
    expect((await settings(admin, 'PUT', { base_url: chat.baseUrl, model: '', key: 'k' })).statusCode).toBe(400);
    expect((await settings(admin, 'PUT', { base_url: chat.baseUrl, model: 'good', key: 'k', temperature: 2 })).statusCode).toBe(400);
    expect(await rawRow(admin.workspaceId)).toEqual(before);
  });

  it('is for admins only: an editor, and any API key, are refused', async () => {
    for (const res of [await settings(editor, 'GET'), await settings(editor, 'PUT', { base_url: chat.baseUrl, model: 'good', key: 'sk-x' }), await test(editor), await settings(editor, 'DELETE')]) {
      expect(res.statusCode).toBe(403);
    }
    const key = await t.apiKey('all', admin);
    expect((await t.app.inject({ method: 'GET', url: '/v1/workspace/ai', headers: bearer(key) })).statusCode).toBe(403);
  });

  it('tests the connection: the model and the time it took, or the reason in words', async () => {
    const saved = (await test(admin)).json().data;
    expect(saved).toMatchObject({ ok: true, model: 'good-2026-01-01', error: null });
    expect(saved.latency_ms).toBeGreaterThanOrEqual(0);
    expect(chat.calls.at(-1)!.authorization).toBe('Bearer sk-good');

    const badKey = (await test(admin, { key: 'sk-bad' })).json().data;
    expect(badKey).toEqual({
      ok: false,
      model: null,
      latency_ms: null,
      error: 'The API refused the key (HTTP 401: “Incorrect API key provided: sk-b***. You can find your API key in your account settings.”): check the key, or make a new one',
    });
    const badModel = (await test(admin, { model: 'gpt-nope' })).json().data;
    expect(badModel.error).toMatch(/HTTP 404: “The model `gpt-nope` does not exist.”: check the base URL .* and the model name/);
    const nobody = (await test(admin, { base_url: 'http://127.0.0.1:9/v1', key: 'sk-good' })).json().data;
    expect(nobody.error).toBe('The connection was refused: is the API server running at this address?');
    // The form is tried as it is: a private address is refused before any connection, with the way to open it.
    const refused = await test(admin, { base_url: 'http://192.168.0.10/v1', key: 'sk-good' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toContain('ALLOW_PRIVATE_NETWORK_CIDRS');
  });

  it('Rewrite: the model’s suggestion for a step, from its facts, saved nowhere', async () => {
    const demo = (await editor.inject({ method: 'POST', url: '/v1/demos', payload: { title: 'Acme tour' } })).json().data;
    const step = (await editor.inject({ method: 'POST', url: `/v1/demos/${demo.id}/steps`, payload: { title: 'Pricing', description: 'Prices.', page_url: 'https://acme.test/pricing' } })).json().data;
    const res = await editor.inject({ method: 'POST', url: `/v1/demos/${demo.id}/steps/${step.id}/rewrite`, payload: { instruction: 'shorter' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ title: 'Rewritten: Pricing', description: 'Click “Pricing” to see it (shorter).', model: 'good-2026-01-01' });
    const facts = JSON.parse(chat.calls.at(-1)!.body.messages.find((m) => m.role === 'user')!.content);
    expect(facts).toMatchObject({ demo: { title: 'Acme tour' }, step: { number: 1, of: 1, title: 'Pricing', description: 'Prices.', page_url: 'https://acme.test/pricing' }, instruction: 'shorter' });
    const after = (await editor.inject({ method: 'GET', url: `/v1/demos/${demo.id}` })).json().data;
    expect(after.steps[0].title).toBe('Pricing');

    // Without a body too; a step of another demo is 404; a model that fails is a 503 in words.
    expect((await editor.inject({ method: 'POST', url: `/v1/demos/${demo.id}/steps/${step.id}/rewrite` })).statusCode).toBe(200);
    const other = (await editor.inject({ method: 'POST', url: '/v1/demos', payload: { title: 'Other' } })).json().data;
    expect((await editor.inject({ method: 'POST', url: `/v1/demos/${other.id}/steps/${step.id}/rewrite` })).statusCode).toBe(404);
    await settings(admin, 'PUT', { base_url: chat.baseUrl, model: 'chatty' });
    const failed = await editor.inject({ method: 'POST', url: `/v1/demos/${demo.id}/steps/${step.id}/rewrite` });
    expect(failed.statusCode).toBe(503);
    expect(failed.json().error.message).toBe('The AI model could not rewrite this step: the reply was not JSON. Try again, or check Settings → AI.');
  });

  it('generation writes with the workspace’s model, and falls back to the built-in writer when it fails', async () => {
    const key = await t.apiKey(['demos:read', 'demos:write'], editor);
    const generate = async () => {
      const created = (await editor.inject({ method: 'POST', url: '/v1/demos', payload: { source_url: `${site.origin}/`, generate_with_ai: true } })).json().data;
      return waitForDemo(t, key, created.id, (d) => d.status !== 'generating');
    };
    await settings(admin, 'PUT', { base_url: chat.baseUrl, model: 'good' });
    chat.calls.length = 0;
    const written = await generate();
    expect(written.generation).toMatchObject({ status: 'succeeded', writer: 'ai' });
    expect((written.steps as Array<{ title: string }>)[0]!.title).toBe('Workspace model 1');
    expect(chat.calls.map((c) => [c.body.model, c.authorization, c.body.response_format?.json_schema?.name])).toEqual([['good', 'Bearer sk-good', 'demo_steps']]);

    await settings(admin, 'PUT', { base_url: chat.baseUrl, model: 'broken' });
    const fallback = await generate();
    expect(fallback.generation).toMatchObject({ status: 'succeeded', writer: 'builtin' });
    expect((fallback.steps as Array<{ title: string }>)[0]!.title).not.toMatch(/Workspace model/);
  });

  it('forgets the model and its key on DELETE: generation and Rewrite go back to the built-in writer', async () => {
    expect((await settings(admin, 'DELETE')).statusCode).toBe(204);
    expect(await rawRow(admin.workspaceId)).toBeUndefined();
    expect((await settings(admin, 'GET')).json().data.source).toBe('none');
    expect((await settings(admin, 'DELETE')).statusCode).toBe(204);
    const demo = (await editor.inject({ method: 'POST', url: '/v1/demos', payload: { title: 'After' } })).json().data;
    const step = (await editor.inject({ method: 'POST', url: `/v1/demos/${demo.id}/steps`, payload: { title: 'One' } })).json().data;
    const res = await editor.inject({ method: 'POST', url: `/v1/demos/${demo.id}/steps/${step.id}/rewrite` });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(/Settings → AI/);
  });
});
