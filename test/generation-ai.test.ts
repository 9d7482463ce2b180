import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressPolicy } from '../src/core/net/address-policy';
import { SafeFetch } from '../src/core/net/safe-fetch';
import { createGenerator } from '../src/generation';
import { type ForbiddenServer, startForbiddenServer, startTestSite, type TestSite } from './helpers/site-server';
import { testDocumentPool } from './helpers/documents';

interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format: { type: string; json_schema?: { name: string; strict: boolean } };
}

/**
 * A local server speaking the chat-completions protocol. The model name picks its behaviour, so one
 * server plays a good model, a sloppy one, a slow one and one that only knows json_object.
 */
async function startChatServer() {
  const calls: Array<{ body: ChatRequest; authorization: string | undefined; path: string }> = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
    calls.push({ body, authorization: req.headers.authorization, path: req.url ?? '' });
    const tour = JSON.parse(body.messages.find((m) => m.role === 'user')!.content) as {
      candidates: Array<{ candidate: number; page: number; suggested?: boolean; element: { text: string } }>;
    };
    const write = (c: (typeof tour.candidates)[number], i: number) => ({
      candidate: c.candidate,
      title: `AI ${i + 1}: ${c.element.text}`.slice(0, 60),
      description: `A guided look at “${c.element.text}”.`,
      tooltip: `Have a look at ${c.element.text}`.slice(0, 100),
    });
    const good = JSON.stringify({ steps: tour.candidates.filter((c) => c.suggested).map(write) });
    const answer = (content: string, finish = 'stop') =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finish }] }),
      );
    switch (body.model) {
      case 'good':
        return answer(good);
      case 'fenced':
        return answer(`\`\`\`json\n${good}\n\`\`\``);
      case 'chatty':
        return answer('Sure! Here is a lovely tour of the site. Step 1: look at the hero.');
      case 'one-short':
        return answer(JSON.stringify({ steps: JSON.parse(good).steps.slice(0, 1) }));
      case 'twice':
        return answer(JSON.stringify({ steps: [...JSON.parse(good).steps.slice(0, 4), JSON.parse(good).steps[0]] }));
      case 'unknown-candidate':
        return answer(JSON.stringify({ steps: [...JSON.parse(good).steps.slice(0, 4), { ...JSON.parse(good).steps[0], candidate: 999 }] }));
      case 'picky': {
        // Its own choice: the last candidate of every page first, then the first of every page, in reverse page order.
        const byPage = new Map<number, typeof tour.candidates>();
        for (const c of tour.candidates) byPage.set(c.page, [...(byPage.get(c.page) ?? []), c]);
        const pages = [...byPage.values()].reverse();
        const chosen = [...pages.map((p) => p.at(-1)!), ...pages.map((p) => p[0]!)].filter((c, i, all) => all.indexOf(c) === i).slice(0, 10);
        return answer(JSON.stringify({ steps: chosen.map(write) }));
      }
      case 'slow':
        return; // never answers
      case 'json-object-only':
        if (body.response_format.type !== 'json_object') {
          return res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"response_format json_schema is not supported"}}');
        }
        return answer(good);
      default:
        return res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`,
    calls,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('generation with an AI writer (OpenAI-compatible chat completions)', () => {
  let forbidden: ForbiddenServer;
  let site: TestSite;
  let chat: Awaited<ReturnType<typeof startChatServer>>;
  const net = new SafeFetch(AddressPolicy.fromList('127.0.0.1/32'));
  const documents = testDocumentPool();

  beforeAll(async () => {
    forbidden = await startForbiddenServer();
    site = await startTestSite(forbidden);
    chat = await startChatServer();
  });
  afterAll(async () => {
    await net.close();
    await documents.close();
    await chat?.close();
    await site?.close();
    await forbidden?.close();
  });

  const generate = async (model: string, timeoutMs = 5_000) => {
    chat.calls.length = 0;
    const generator = createGenerator({ net, documents, chromiumPath: null, ai: { baseUrl: chat.baseUrl, apiKey: 'sk-test-key', model, timeoutMs } });
    try {
      return await generator.generate({ url: `${site.origin}/` });
    } finally {
      await generator.close();
    }
  };

  it('uses the model’s text when the reply is good, sending it the facts and a strict JSON schema', async () => {
    const result = await generate('good');
    expect(result.writer).toBe('ai');
    expect(result.warnings.filter((w) => /AI writer/.test(w))).toEqual([]);
    expect(result.steps[0]!.title).toBe('AI 1: Turn your product into a tour people finish');
    expect(result.steps[1]!.hotspots[0]!.tooltip).toBe('Have a look at Start free trial');
    // The hotspot's label and geometry stay the built-in ones: the model writes words only.
    expect(result.steps[1]!.hotspots[0]!.label).toBe('Start free trial');
    expect(result.steps[1]!.hotspots[0]!.selector).toBe('#hero-cta');

    expect(chat.calls).toHaveLength(1);
    const [call] = chat.calls;
    expect(call!.path).toBe('/v1/chat/completions');
    expect(call!.authorization).toBe('Bearer sk-test-key');
    expect(call!.body.model).toBe('good');
    expect(call!.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'demo_steps', strict: true } });
    const facts = call!.body.messages.find((m) => m.role === 'user')!.content;
    expect(facts).toContain('Start free trial');
    expect(facts).toContain('Growth at $29/month (most popular)');
  });

  it('lets the model choose the steps among the candidates, and walks its choice page by page in visit order', async () => {
    const builtin = await generate('missing-model');
    const result = await generate('picky');
    expect(result.writer).toBe('ai');
    const facts = JSON.parse(chat.calls[0]!.body.messages.find((m) => m.role === 'user')!.content) as { candidates: Array<{ suggested?: boolean }> };
    // More candidates than the rules chose, the rules' choice marked.
    expect(facts.candidates.length).toBeGreaterThan(facts.candidates.filter((c) => c.suggested).length);
    expect(facts.candidates.filter((c) => c.suggested)).toHaveLength(builtin.steps.length);
    const pages = result.steps.map((s) => s.pageUrl);
    const runs = pages.filter((p, i) => i === 0 || pages[i - 1] !== p);
    expect(new Set(runs).size).toBe(runs.length);
    expect(runs).toEqual(result.pages.filter((p) => runs.includes(p)));
    expect(result.steps.map((s) => s.title)).not.toEqual(builtin.steps.map((s) => s.title));
    // Each chosen step keeps the built-in hotspot of its element.
    for (const step of result.steps) expect(step.hotspots[0]!.selector).toBeTruthy();
  });

  it('falls back on a choice that repeats a candidate or names one that does not exist', async () => {
    for (const model of ['twice', 'unknown-candidate']) {
      const result = await generate(model);
      expect(result.writer).toBe('builtin');
      expect(result.warnings.some((w) => /did not match the expected shape \(steps: a candidate/.test(w))).toBe(true);
    }
  });

  it('accepts a reply wrapped in a code fence', async () => {
    expect((await generate('fenced')).writer).toBe('ai');
  });

  it('asks again with json_object when the server does not know json_schema', async () => {
    const result = await generate('json-object-only');
    expect(result.writer).toBe('ai');
    expect(chat.calls.map((c) => c.body.response_format.type)).toEqual(['json_schema', 'json_object']);
  });

  it('falls back to the built-in writer, with a warning, on a malformed reply (after one retry)', async () => {
    const result = await generate('chatty');
    expect(result.writer).toBe('builtin');
    expect(result.steps[0]!.title).toBe('Turn your product into a tour people finish');
    expect(result.warnings).toContain('The AI writer failed (the reply was not JSON); the built-in writer wrote the steps.');
    expect(chat.calls).toHaveLength(2);

    const short = await generate('one-short');
    expect(short.writer).toBe('builtin');
    expect(short.warnings.some((w) => /did not match the expected shape \(steps: /.test(w))).toBe(true);
  });

  it('falls back to the built-in writer, with a warning, when the model does not answer in time', async () => {
    const result = await generate('slow', 400);
    expect(result.writer).toBe('builtin');
    expect(result.steps[1]!.title).toBe('Click “Start free trial”');
    expect(result.warnings).toContain('The AI writer failed (no answer within 0.4 s); the built-in writer wrote the steps.');
    expect(chat.calls).toHaveLength(2);
  });

  it('falls back when the API is not there at all', async () => {
    const result = await generate('missing-model');
    expect(result.writer).toBe('builtin');
    expect(result.warnings.some((w) => /HTTP 404/.test(w))).toBe(true);
  });
});
