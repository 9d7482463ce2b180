import { type Received, type Reply, WebhookReceiver } from './webhook-receiver';

/** A message as an incoming webhook receives it. */
export interface SlackMessageIn {
  text: string;
  blocks: Array<{ type: string; text?: { type: string; text: string }; fields?: Array<{ text: string }>; elements?: Array<{ type: string; text?: { text: string } | string; url?: string }> }>;
}

/**
 * A local stand-in for Slack's incoming webhooks (api.slack.com/messaging/webhooks), answering as Slack
 * documents: `ok` (200); `invalid_payload` (400) for a body that is not JSON or has no `text`/`blocks`;
 * `invalid_blocks` (400) past 50 blocks, a section text over 3000 characters, more than 10 fields or a
 * field over 2000; and whatever the test sets with `answer` (404 `no_service`, 429 with Retry-After...).
 */
export class SlackReceiver extends WebhookReceiver {
  private override?: (req: Received, index: number) => Reply | undefined;

  constructor() {
    super();
    this.answerAsSlack();
  }

  /** Answers with `fn`'s reply, or as Slack would when it returns undefined. */
  answer(fn: (req: Received, index: number) => Reply | undefined): void {
    this.override = fn;
    this.answerAsSlack();
  }

  override reset(): void {
    super.reset();
    this.override = undefined;
    this.answerAsSlack();
  }

  private answerAsSlack() {
    this.respond((req, index) => this.override?.(req, index) ?? slackAnswer(req));
  }

  /** The messages received on `path`, parsed. */
  messages(path?: string): SlackMessageIn[] {
    return this.received.filter((r) => !path || r.path === path).map((r) => JSON.parse(r.body.toString('utf8')) as SlackMessageIn);
  }
}

function slackAnswer(req: Received): Reply {
  let body: SlackMessageIn;
  try {
    body = JSON.parse(req.body.toString('utf8'));
  } catch {
    return { status: 400, body: 'invalid_payload' };
  }
  if (typeof body.text !== 'string' && !Array.isArray(body.blocks)) return { status: 400, body: 'no_text' };
  const blocks = body.blocks ?? [];
  if (blocks.length > 50) return { status: 400, body: 'invalid_blocks' };
  for (const b of blocks) {
    if (b.text && b.text.text.length > 3000) return { status: 400, body: 'invalid_blocks' };
    if (b.fields && (b.fields.length > 10 || b.fields.some((f) => f.text.length > 2000))) return { status: 400, body: 'invalid_blocks' };
  }
  return { status: 200, body: 'ok' };
}

/** Every piece of text of a message, joined: what a test searches. */
export function allText(m: SlackMessageIn): string {
  const parts = [m.text];
  for (const b of m.blocks) {
    if (b.text) parts.push(b.text.text);
    for (const f of b.fields ?? []) parts.push(f.text);
    for (const e of b.elements ?? []) parts.push(typeof e.text === 'string' ? e.text : (e.text?.text ?? ''), e.url ?? '');
  }
  return parts.join('\n');
}
