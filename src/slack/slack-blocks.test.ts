import { describe, expect, it } from 'vitest';
import { clip, digestMessage, escapeMrkdwn, hubVisitorMessage, LIMITS, lines, viewerAlertMessage } from './slack-blocks';
import { judgeSlackAnswer } from './slack.sender';

const NOW = new Date('2026-11-28T10:00:00.000Z');

describe('mrkdwn escaping and limits', () => {
  it('escapes &, < and > so a name cannot ping or link', () => {
    expect(escapeMrkdwn('Tom & <Jerry> <!channel> <https://evil|x>')).toBe('Tom &amp; &lt;Jerry&gt; &lt;!channel&gt; &lt;https://evil|x&gt;');
  });
  it('cuts after escaping without splitting an entity, on one line', () => {
    const cut = clip('&'.repeat(100), 20);
    expect(cut.length).toBeLessThanOrEqual(20);
    expect(cut).toMatch(/^(&amp;)+…$/);
    expect(clip('a\n\nb   c', 50)).toBe('a b c');
    expect(clip('x'.repeat(5000), 100)).toHaveLength(100);
  });
  it('joins lines under a budget and counts the rest', () => {
    const text = lines(Array.from({ length: 500 }, (_, i) => `• viewer number ${i}`), 300);
    expect(text.length).toBeLessThanOrEqual(300);
    expect(text).toMatch(/…and \d+ more$/);
  });
});

describe('messages within Slack’s limits', () => {
  it('a viewer alert with huge, hostile input stays within every limit', () => {
    const huge = `<!here> ${'W'.repeat(10_000)}`;
    const m = viewerAlertMessage({
      alert: 'lead_captured',
      workspace: huge,
      demo: { title: huge, url: 'https://app.example/demos/demo_1/analytics' },
      viewer: { email: `${'a'.repeat(300)}@x.test`, name: huge },
      company: huge,
      link: huge,
      progress: huge,
      answers: Array.from({ length: 40 }, (_, i) => [`field ${i} ${huge}`, huge] as [string, string]),
      journeyUrl: 'https://app.example/demos/demo_1/analytics?view=view_1',
      leadsUrl: 'https://app.example/leads',
      at: NOW,
    });
    expect(m.blocks.length).toBeLessThanOrEqual(LIMITS.blocks);
    expect(m.text.length).toBeLessThanOrEqual(LIMITS.text);
    expect(JSON.stringify(m)).not.toContain('<!here>');
    for (const b of m.blocks) {
      if (b.type === 'section') {
        if (b.text) expect(b.text.text.length).toBeLessThanOrEqual(LIMITS.sectionText);
        expect((b.fields ?? []).length).toBeLessThanOrEqual(LIMITS.fields);
        for (const f of b.fields ?? []) expect(f.text.length).toBeLessThanOrEqual(LIMITS.field);
      }
    }
  });
  it('a hub visitor alert with hostile input is escaped and stays within every limit', () => {
    const huge = `<!channel> <https://evil|click> ${'H'.repeat(10_000)}`;
    const m = hubVisitorMessage({
      workspace: huge,
      hub: { name: huge, url: 'https://app.example/hubs/hub_1#visitors' },
      viewer: { email: 'jane@acme.test', name: huge },
      company: huge,
      answers: [
        ['Company', huge],
        ['Job title', huge],
      ],
      at: NOW,
    });
    expect(JSON.stringify(m)).not.toMatch(/<!channel>|<https:\/\/evil/);
    expect(m.text.length).toBeLessThanOrEqual(LIMITS.text);
    for (const b of m.blocks) {
      if (b.type === 'section' && b.text) expect(b.text.text.length).toBeLessThanOrEqual(LIMITS.sectionText);
      for (const f of b.type === 'section' ? (b.fields ?? []) : []) expect(f.text.length).toBeLessThanOrEqual(LIMITS.field);
    }
    const plain = hubVisitorMessage({ workspace: 'Acme', hub: { name: 'Partners', url: 'https://app.example/hubs/hub_1#visitors' }, viewer: { email: 'sam@gmail.com', name: null }, company: null, answers: [], at: NOW });
    expect(plain.text).toBe('sam@gmail.com sent the form of the hub “Partners”');
    expect(JSON.stringify(plain.blocks)).toContain('Individual (free e-mail address)');
    expect(plain.blocks.map((b) => b.type)).toEqual(['section', 'section', 'actions', 'context']);
  });
  it('a digest of a busy day stays within every limit and says how many it left out', () => {
    const m = digestMessage({
      workspace: 'Acme & Co',
      day: '2026-11-27',
      views: {
        views: 5000,
        completed: 1200,
        demos: Array.from({ length: 300 }, (_, i) => ({ title: `Demo <${i}>`, views: 10, completed: 2 })),
        newCompanies: Array.from({ length: 300 }, (_, i) => ({ domain: `c${i}.example`, viewers: 1 })),
        viewers: Array.from({ length: 3000 }, (_, i) => ({ email: `v${i}@c.example`, name: `Viewer ${i}`, demo: 'Tour', completed: i % 2 === 0 })),
      },
      hubs: Array.from({ length: 200 }, (_, i) => ({
        name: `Hub | <${i}>`,
        url: `https://app.example/hubs/hub_${i}#visitors`,
        visits: 300 - i,
        visitors: Array.from({ length: 40 }, (_, j) => ({ email: `h${j}@c.example`, name: j % 2 ? `Visitor ${j}` : null, company: 'Initech' })),
      })),
      analyticsUrl: 'https://app.example/analytics',
      hubsUrl: 'https://app.example/hubs',
    });
    expect(m.blocks.length).toBeLessThanOrEqual(LIMITS.blocks);
    for (const b of m.blocks) if (b.type === 'section' && b.text) expect(b.text.text.length).toBeLessThanOrEqual(LIMITS.sectionText);
    expect(JSON.stringify(m)).toContain('more');
    expect(JSON.stringify(m)).toContain('Demo &lt;0&gt;');
    const hubs = m.blocks.find((b) => b.type === 'section' && b.text?.text.startsWith('*Hubs*'));
    // The name cannot end the link's label early or open a link of its own.
    expect(hubs?.type === 'section' && hubs.text?.text).toContain('• <https://app.example/hubs/hub_0#visitors|Hub ¦ &lt;0&gt;>: 300 visits, 40 visitors identified: h0@c.example, Initech; Visitor 1 (h1@c.example, Initech);');
    expect(hubs?.type === 'section' && hubs.text?.text).toMatch(/and 35 more\n/);
    expect(hubs?.type === 'section' && hubs.text?.text).toMatch(/…and \d+ more$/);
    expect(m.text).toBe(`Acme &amp; Co on 2026-11-27: 5000 views, 1200 completed; ${(300 * 301) / 2 - (100 * 101) / 2} hub visits, 8000 visitors identified`);
    expect(m.blocks.at(-1)).toMatchObject({ type: 'actions', elements: [{ url: 'https://app.example/analytics' }] });
  });
  it('a digest of hub visits only: the figures and the hubs, and a button to the hubs', () => {
    const m = digestMessage({
      workspace: 'Acme',
      day: '2026-11-27',
      views: null,
      hubs: [{ name: 'Partner portal', url: 'https://app.example/hubs/hub_1#visitors', visits: 1, visitors: [] }],
      analyticsUrl: 'https://app.example/analytics',
      hubsUrl: 'https://app.example/hubs',
    });
    expect(m.text).toBe('Acme on 2026-11-27: 1 hub visit');
    expect(m.blocks.map((b) => (b.type === 'section' ? b.text?.text : b.type))).toEqual([
      ':bar_chart: *Acme* on 2026-11-27: 1 hub visit',
      '*Hubs*\n• <https://app.example/hubs/hub_1#visitors|Partner portal>: 1 visit',
      'actions',
    ]);
    expect(m.blocks.at(-1)).toMatchObject({ elements: [{ text: { text: 'Open hubs' }, url: 'https://app.example/hubs' }] });
  });
});

describe('judgeSlackAnswer', () => {
  it('reads Slack’s documented answers', () => {
    expect(judgeSlackAnswer(200, {}, 'ok', NOW)).toEqual({ kind: 'sent' });
    expect(judgeSlackAnswer(404, {}, 'no_service', NOW)).toEqual({ kind: 'dead', reason: 'Slack answered 404 no_service' });
    expect(judgeSlackAnswer(404, {}, 'channel_not_found', NOW).kind).toBe('dead');
    expect(judgeSlackAnswer(410, {}, 'channel_is_archived', NOW).kind).toBe('dead');
    expect(judgeSlackAnswer(403, {}, 'invalid_token', NOW).kind).toBe('dead');
    expect(judgeSlackAnswer(400, {}, 'invalid_blocks', NOW)).toEqual({ kind: 'rejected', reason: 'Slack answered 400 invalid_blocks' });
    expect(judgeSlackAnswer(429, { 'retry-after': '30' }, 'rate_limited', NOW)).toEqual({ kind: 'retry', reason: 'Slack answered 429 rate_limited', retryAfterMs: 30_000 });
    expect(judgeSlackAnswer(500, {}, 'rollup_error', NOW)).toMatchObject({ kind: 'retry', retryAfterMs: null });
    expect(judgeSlackAnswer(302, { location: 'https://x' }, '', NOW).kind).toBe('retry');
  });
});
