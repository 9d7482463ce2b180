// A local OpenAI-compatible chat-completions server for the AI tests: real HTTP, behaviour chosen by the model name.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatCall {
  path: string;
  authorization: string | undefined;
  body: {
    model: string;
    messages: Array<{ role: string; content: string }>;
    response_format?: { type: string; json_schema?: { name: string; strict: boolean } };
  };
}

export interface ChatServer {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  calls: ChatCall[];
  close(): Promise<void>;
}

/**
 * Speaks `POST /v1/chat/completions`. The key `sk-good` is accepted, any other answers 401 as OpenAI does.
 * Models: `good` answers every kind of request well (a one-word test, a step rewrite, a generated tour),
 * `broken` answers 500, `slow` never answers, `chatty` answers prose where JSON was asked for. A translation
 * (`demo_translation`) prefixes each unit with the target language and drops hotspot labels' variables.
 */
export async function startChatServer(): Promise<ChatServer> {
  const calls: ChatCall[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatCall['body'];
    calls.push({ body, authorization: req.headers.authorization, path: req.url ?? '' });
    const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (req.url !== '/v1/chat/completions') return json(404, { error: { message: `Unknown path ${req.url}` } });
    if (req.headers.authorization !== 'Bearer sk-good') {
      return json(401, { error: { message: 'Incorrect API key provided: sk-b***. You can find your API key in your account settings.', type: 'invalid_request_error', code: 'invalid_api_key' } });
    }
    const answer = (content: string) =>
      json(200, { id: 'chatcmpl-1', object: 'chat.completion', model: `${body.model}-2026-01-01`, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
    const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
    switch (body.model) {
      case 'good':
        break;
      case 'broken':
        return json(500, { error: { message: 'The server had an error while processing your request.' } });
      case 'slow':
        return;
      case 'chatty':
        return answer('Sure! Here is a better step for you.');
      default:
        return json(404, { error: { message: `The model \`${body.model}\` does not exist.` } });
    }
    const kind = body.response_format?.json_schema?.name;
    if (kind === 'demo_step') {
      const facts = JSON.parse(user) as { step: { title: string; highlights: Array<{ label?: string }> }; instruction?: string };
      const label = facts.step.highlights[0]?.label ?? facts.step.title;
      return answer(JSON.stringify({ title: `Rewritten: ${facts.step.title}`.slice(0, 60), description: `Click “${label}” to see it${facts.instruction ? ` (${facts.instruction})` : ''}.` }));
    }
    if (kind === 'demo_translation') {
      // "Translates" by prefixing the target language; drops the variables of hotspot labels, as a careless model would.
      const ask = JSON.parse(user) as { target_language: string; units: Array<{ id: string; text: string }> };
      const translations = ask.units.map((u) => ({
        id: u.id,
        text: `${ask.target_language.toUpperCase()}: ${/^hotspot\..*\.label$/.test(u.id) ? u.text.replace(/\{\{[^}]*\}\}/g, '') : u.text}`,
      }));
      return answer(JSON.stringify({ translations }));
    }
    if (kind === 'demo_steps') {
      const tour = JSON.parse(user) as { candidates: Array<{ candidate: number; suggested?: boolean; element: { text: string } }> };
      const steps = tour.candidates
        .filter((c) => c.suggested)
        .map((c, i) => ({ candidate: c.candidate, title: `Workspace model ${i + 1}`, description: `About “${c.element.text}”.`, tooltip: `See ${c.element.text}`.slice(0, 100) }));
      return answer(JSON.stringify({ steps }));
    }
    return answer('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
