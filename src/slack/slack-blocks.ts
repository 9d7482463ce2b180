// Block Kit messages a sales rep can act on: who, which company, which demo, how far, and a button to the journey.
import { hubTotals } from '../notifications/notification-mail';
import type { SlackAlert } from './slack.tables';

/** Slack's limits (api.slack.com/reference/block-kit): what a message may hold before Slack refuses it. */
export const LIMITS = { blocks: 50, sectionText: 3000, field: 2000, fields: 10, contextElements: 10, buttonUrl: 3000, text: 4000 };

type Text = { type: 'mrkdwn' | 'plain_text'; text: string; emoji?: boolean };
export type Block =
  | { type: 'section'; text?: Text; fields?: Text[] }
  | { type: 'context'; elements: Text[] }
  | { type: 'divider' }
  | { type: 'actions'; elements: Array<{ type: 'button'; text: Text; url: string; style?: 'primary'; action_id: string }> };

/** The JSON Slack's incoming webhooks take. */
export interface SlackPayload {
  text: string;
  blocks: Block[];
  unfurl_links: false;
  unfurl_media: false;
}

/**
 * Escapes Slack's three control characters in user-given text (a viewer's name, a demo's title), so that
 * `<!channel>` or `<https://evil|click>` in a name is shown as typed instead of pinging or linking.
 *
 * @example
 * ```ts
 * escapeMrkdwn('Tom & <Jerry>'); // 'Tom &amp; &lt;Jerry&gt;'
 * ```
 */
export function escapeMrkdwn(raw: string): string {
  return raw.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * User text escaped and cut to `max` characters after escaping (an entity is never cut in half), on one line.
 *
 * @example
 * ```ts
 * clip('a'.repeat(5000), 100).length; // 100, ending in '…'
 * ```
 */
export function clip(raw: string, max: number, oneLine = true): string {
  const source = oneLine ? raw.replace(/\s+/g, ' ').trim() : raw.trim();
  let escaped = escapeMrkdwn(source);
  if (escaped.length <= max) return escaped;
  // Cut the raw text, then escape: an entity is never cut in half.
  let keep = max - 1;
  for (;;) {
    if (keep <= 0) return '…';
    escaped = `${escapeMrkdwn(source.slice(0, keep))}…`;
    if (escaped.length <= max) return escaped;
    // An escaped character takes at most five: this never cuts more than it must.
    keep -= Math.max(1, Math.ceil((escaped.length - max) / 5));
  }
}

/** Lines joined under a budget, the rest counted: `…and 12 more`. Lines are already mrkdwn. */
export function lines(items: string[], max = LIMITS.sectionText): string {
  const out: string[] = [];
  let used = 0;
  for (const [i, line] of items.entries()) {
    const tail = `\n…and ${items.length - i} more`;
    if (used + line.length + 1 + tail.length > max) return `${out.join('\n')}${tail}`;
    out.push(line);
    used += line.length + 1;
  }
  return out.join('\n');
}

const section = (text: string): Block => ({ type: 'section', text: { type: 'mrkdwn', text } });
const field = (label: string, value: string): Text => ({ type: 'mrkdwn', text: `*${label}*\n${value}`.slice(0, LIMITS.field) });
const button = (text: string, url: string, id: string, primary = false) => ({
  type: 'button' as const,
  text: { type: 'plain_text' as const, text, emoji: false },
  url: url.slice(0, LIMITS.buttonUrl),
  action_id: id,
  ...(primary ? { style: 'primary' as const } : {}),
});
/** Slack shows the time in each reader's own time zone; the fallback is UTC. */
const when = (at: Date) =>
  `<!date^${Math.floor(at.getTime() / 1000)}^{date_short_pretty} at {time}|${at.toISOString().slice(0, 16).replace('T', ' ')} UTC>`;

/** Everything an alert about one viewer says. Strings are raw user text: escaped here. */
export interface ViewerAlert {
  alert: Exclude<SlackAlert, 'daily_digest'>;
  workspace: string;
  demo: { title: string; url: string };
  viewer: { email: string | null; name: string | null };
  /** The lead form's company, the personalised link's, or the address's domain; null for a free-mail or anonymous viewer. */
  company: string | null;
  link: string | null;
  /** How far they got, in words ("Finished all 12 steps in 3 min 4 s"). */
  progress: string | null;
  /** A lead form's answers besides name and e-mail. */
  answers: Array<[string, string]>;
  journeyUrl: string;
  leadsUrl?: string;
  at: Date;
}

const VERB: Record<ViewerAlert['alert'], { emoji: string; verb: string }> = {
  viewer_opened: { emoji: ':eyes:', verb: 'opened' },
  demo_finished: { emoji: ':checkered_flag:', verb: 'finished' },
  lead_captured: { emoji: ':inbox_tray:', verb: 'sent the form in' },
};

/**
 * The message for one viewer: a headline a rep reads in the notification, the facts as fields, a button
 * to the journey (and to the leads for a lead), and when.
 *
 * @example
 * ```ts
 * const { text, blocks } = viewerAlertMessage({ alert: 'viewer_opened', demo: { title: 'Tour', url }, ... });
 * ```
 */
export function viewerAlertMessage(a: ViewerAlert): SlackPayload {
  const { emoji, verb } = VERB[a.alert];
  const who = a.viewer.name?.trim() || a.viewer.email || 'An anonymous viewer';
  const from = a.company ? ` from ${a.company}` : '';
  const headline = `${clip(who, 200)}${a.company ? ` from *${clip(a.company, 200)}*` : ''} ${verb} *${clip(a.demo.title, 300)}*`;
  const fields: Text[] = [];
  const viewer = [a.viewer.name?.trim() ? clip(a.viewer.name, 200) : null, a.viewer.email ? `<mailto:${clip(a.viewer.email, 320)}|${clip(a.viewer.email, 320)}>` : null]
    .filter(Boolean)
    .join('\n');
  fields.push(field('Viewer', viewer || 'Anonymous'));
  fields.push(field('Company', a.company ? clip(a.company, 300) : a.viewer.email ? 'Individual (free e-mail address)' : 'Unknown'));
  fields.push(field('Demo', `<${a.demo.url}|${clip(a.demo.title, 500)}>`));
  if (a.progress) fields.push(field('Progress', clip(a.progress, 500)));
  if (a.link) fields.push(field('Link', clip(a.link, 500)));
  const blocks: Block[] = [section(`${emoji} ${headline}`), { type: 'section', fields: fields.slice(0, LIMITS.fields) }];
  if (a.answers.length > 0) {
    const answers = a.answers.slice(0, LIMITS.fields).map(([label, value]) => field(clip(label, 100), clip(value, 1000, false) || '—'));
    blocks.push({ type: 'section', fields: answers });
  }
  const actions = [button('Open the journey', a.journeyUrl, 'journey', true)];
  if (a.leadsUrl) actions.push(button('All leads', a.leadsUrl, 'leads'));
  blocks.push({ type: 'actions', elements: actions });
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `${clip(a.workspace, 200)} · ${when(a.at)}` }] });
  const text = `${who}${from} ${verb} “${a.demo.title}”`;
  return { text: clip(text, LIMITS.text), blocks, unfurl_links: false, unfurl_media: false };
}

/** Everything the alert about a hub's visitor says (the lead alert's counterpart for a hub). Raw user text: escaped here. */
export interface HubVisitorAlert {
  workspace: string;
  hub: { name: string; url: string };
  viewer: { email: string | null; name: string | null };
  company: string | null;
  /** The hub form's answers besides name and e-mail, labelled. */
  answers: Array<[string, string]>;
  at: Date;
}

/**
 * Someone passed a hub's identification or lead form: who, from which company, which hub, what they
 * answered, and a button to the hub's visitors in the web app.
 *
 * @example
 * ```ts
 * const { text } = hubVisitorMessage({ workspace: 'Acme', hub: { name: 'Partners', url }, viewer, company: null, answers: [], at });
 * ```
 */
export function hubVisitorMessage(a: HubVisitorAlert): SlackPayload {
  const who = a.viewer.name?.trim() || a.viewer.email || 'A visitor';
  const from = a.company ? ` from ${a.company}` : '';
  const headline = `${clip(who, 200)}${a.company ? ` from *${clip(a.company, 200)}*` : ''} sent the form of the hub *${clip(a.hub.name, 300)}*`;
  const viewer = [a.viewer.name?.trim() ? clip(a.viewer.name, 200) : null, a.viewer.email ? `<mailto:${clip(a.viewer.email, 320)}|${clip(a.viewer.email, 320)}>` : null]
    .filter(Boolean)
    .join('\n');
  const fields = [
    field('Viewer', viewer || 'Anonymous'),
    field('Company', a.company ? clip(a.company, 300) : a.viewer.email ? 'Individual (free e-mail address)' : 'Unknown'),
    field('Hub', `<${a.hub.url}|${clip(a.hub.name, 500)}>`),
  ];
  const blocks: Block[] = [section(`:inbox_tray: ${headline}`), { type: 'section', fields }];
  if (a.answers.length > 0) {
    blocks.push({ type: 'section', fields: a.answers.slice(0, LIMITS.fields).map(([label, value]) => field(clip(label, 100), clip(value, 1000, false) || '—')) });
  }
  blocks.push({ type: 'actions', elements: [button('See the hub’s visitors', a.hub.url, 'hub_visitors', true)] });
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `${clip(a.workspace, 200)} · ${when(a.at)}` }] });
  const text = `${who}${from} sent the form of the hub “${a.hub.name}”`;
  return { text: clip(text, LIMITS.text), blocks, unfurl_links: false, unfurl_media: false };
}

/** What the digest says about a day (the notifications' digest, with the addresses the buttons and links open). */
export interface DigestFacts {
  workspace: string;
  day: string;
  /** The demos' views; null on a day with hub visits only. */
  views: {
    views: number;
    completed: number;
    demos: Array<{ title: string; views: number; completed: number }>;
    newCompanies: Array<{ domain: string; viewers: number }>;
    viewers: Array<{ email: string; name: string | null; demo: string; completed: boolean }>;
  } | null;
  /** The hubs with visits that day, busiest first, each linking to its visitors. */
  hubs: Array<{ name: string; url: string; visits: number; visitors: Array<{ email: string; name: string | null; company: string | null }> }>;
  analyticsUrl: string;
  hubsUrl: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A hub's line: its name linking to its visitors, its visits, and who identified. */
function hubLine(h: DigestFacts['hubs'][number]) {
  const who = h.visitors.map((v) => {
    const about = [v.email, ...(v.company ? [v.company] : [])].map((x) => clip(x, 200)).join(', ');
    return v.name ? `${clip(v.name, 120)} (${about})` : about;
  });
  const identified = who.length > 0 ? `, ${plural(who.length, 'visitor')} identified: ${who.slice(0, 5).join('; ')}${who.length > 5 ? ` and ${who.length - 5} more` : ''}` : '';
  // A link's label may hold neither `|` nor `>`: clip escapes `>`, and a bar would end the label early.
  return `• <${h.url.slice(0, LIMITS.buttonUrl)}|${clip(h.name, 200).replace(/\|/g, '¦')}>: ${plural(h.visits, 'visit')}${identified}`;
}

/**
 * The daily digest: the day's figures, the demos by views, new companies and who viewed, the hubs' visits
 * and who identified there, each list cut to what a section holds, with a button to the analytics (or to
 * the hubs on a day of hub visits only).
 *
 * @example
 * ```ts
 * const payload = digestMessage({ workspace: 'Acme', day: '2026-11-28', views: { views: 3, ... }, hubs: [], ... });
 * ```
 */
export function digestMessage(d: DigestFacts): SlackPayload {
  const figures = [
    ...(d.views ? [`${plural(d.views.views, 'view')}, ${d.views.completed} completed`] : []),
    ...(d.hubs.length > 0 ? [hubTotals(d.hubs)] : []),
  ].join('; ');
  const blocks: Block[] = [section(`:bar_chart: *${clip(d.workspace, 200)}* on ${d.day}: ${figures}`)];
  const v = d.views;
  if (v) {
    blocks.push(section(`*Demos*\n${lines(v.demos.map((x) => `• ${clip(x.title, 200)}: ${plural(x.views, 'view')}, ${x.completed} completed`), LIMITS.sectionText - 20)}`));
    if (v.newCompanies.length > 0) {
      blocks.push(section(`*New companies*\n${lines(v.newCompanies.map((c) => `• ${clip(c.domain, 200)} (${plural(c.viewers, 'viewer')})`), LIMITS.sectionText - 20)}`));
    }
    if (v.viewers.length > 0) {
      const who = v.viewers.map((x) => `• ${clip(x.name || x.email, 120)}${x.name ? ` (${clip(x.email, 200)})` : ''}: ${clip(x.demo, 200)}${x.completed ? ' :white_check_mark:' : ''}`);
      blocks.push(section(`*Who viewed*\n${lines(who, LIMITS.sectionText - 20)}`));
    }
  }
  if (d.hubs.length > 0) blocks.push(section(`*Hubs*\n${lines(d.hubs.map(hubLine), LIMITS.sectionText - 20)}`));
  blocks.push({ type: 'actions', elements: [v ? button('Open analytics', d.analyticsUrl, 'analytics', true) : button('Open hubs', d.hubsUrl, 'hubs', true)] });
  const text = `${d.workspace} on ${d.day}: ${figures}`;
  return { text: clip(text, LIMITS.text), blocks, unfurl_links: false, unfurl_media: false };
}

/** The message a URL is checked with when it is saved (and by "Send a test message"). */
export function testMessage(workspace: string, who: string): SlackPayload {
  const text = `Demoshare is connected: alerts of ${workspace} will arrive here.`;
  return {
    text: clip(text, LIMITS.text),
    blocks: [
      section(`:white_check_mark: Demoshare is connected: alerts of *${clip(workspace, 200)}* will arrive in this channel.`),
      { type: 'context', elements: [{ type: 'mrkdwn', text: `Set up by ${clip(who, 300)}` }] },
    ],
    unfurl_links: false,
    unfurl_media: false,
  };
}
