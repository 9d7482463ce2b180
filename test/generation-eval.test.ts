import { describe, expect, it } from 'vitest';
import { type Expected, loadCorpus } from '../eval/corpus';
import { check, type Row, runEval, TARGETS } from '../eval/run';
import { pageWords, rubricSite } from '../eval/rubric';
import { type Placement, relate, scoreSite } from '../eval/score';
import type { GeneratedStep, GenerationResult } from '../src/generation';
import { findChromium } from '../src/generation/chromium';

const chromiumPath = findChromium().path;
const hasChromium = chromiumPath !== null;
/** The corpus sites the suite generates in Chromium mode (the whole corpus in HTML mode). */
const CHROMIUM_SITES = ['spa-launch', 'business-bs5', 'saas-tailwind', 'bulma-saas', 'admin-dashboard', 'tabler-dashboard'];

const expected: Expected = {
  name: 'Acme',
  kind: 'test',
  modes: ['html'],
  spa: false,
  targets: [
    { page: '/', role: 'hero', selector: 'h1', names: ['Ship faster'] },
    { page: '/pricing.html', role: 'pricing', selector: '#plans', names: ['Starter'] },
  ],
  avoid: [{ page: '/', selector: '#cookies', why: 'cookie banner' }],
};
const step = (path: string, title: string): GeneratedStep => ({
  title,
  description: '',
  pageUrl: `http://127.0.0.1:1${path}`,
  width: 1280,
  height: 800,
  hotspots: [{ x: 0, y: 0, width: 0.1, height: 0.1, selector: 'x', label: '', tooltip: '', action: { type: 'next' } }],
});

describe('the generation eval’s scoring', () => {
  it('counts a step good only on a target of its page with words naming it, and says why the others are not', () => {
    const result: GenerationResult = {
      captureMode: 'html',
      writer: 'builtin',
      title: 'Acme',
      warnings: [],
      pages: ['http://127.0.0.1:1/', 'http://127.0.0.1:1/pricing.html'],
      steps: [step('/', 'Ship faster'), step('/pricing.html', 'Compare the plans'), step('/', 'Accept cookies'), step('/', 'Somewhere'), step('/', 'Lost')],
    };
    const [hero, plans] = expected.targets;
    const placements: Placement[] = [
      { missing: null, on: [{ place: hero!, relation: 'same' }] },
      { missing: null, on: [{ place: plans!, relation: 'inside' }] },
      { missing: null, on: [{ place: expected.avoid[0]!, relation: 'same' }] },
      { missing: null, on: [] },
      { missing: 'the hotspot is at its placeholder box', on: [] },
    ];
    const score = scoreSite(result, expected, placements);
    expect(score.steps.map((s) => s.verdict)).toEqual(['good', 'unnamed', 'avoided', 'off target', 'no hotspot']);
    expect([score.good, score.missingHotspots, score.avoided, score.keyHit, score.keyTotal]).toEqual([1, 1, 1, 1, 2]);
    // Home, pricing, then home again: the tour went back.
    expect(score.grouped).toBe(false);
  });

  it('relates boxes: on the element, on a part of it, closely around it, or not on it', () => {
    const button = { x: 100, y: 100, width: 200, height: 50 };
    expect(relate({ x: 98, y: 98, width: 204, height: 54 }, button)).toBe('same');
    expect(relate({ x: 110, y: 110, width: 50, height: 20 }, button)).toBe('inside');
    expect(relate({ x: 90, y: 95, width: 220, height: 60 }, button)).toBe('wraps');
    expect(relate({ x: 80, y: 90, width: 260, height: 70 }, button)).toBeNull();
    expect(relate({ x: 0, y: 0, width: 1280, height: 800 }, button)).toBeNull();
    expect(relate({ x: 400, y: 100, width: 200, height: 50 }, button)).toBeNull();
  });
});

describe('the text rubric', () => {
  const page = pageWords(
    '<html><head><title>Pricing — Ledgerline</title></head><body><h1>Flat monthly pricing</h1><div><h3>Essentials</h3><span>$390</span><span> / mo.</span><a href="/s">Get Started</a></div>' +
      '<div><h3>Growth</h3><span>Most popular</span><span>$790</span><span> / mo.</span></div><h2>Team</h2><h5>Ada Lindqvist</h5><p>Book your books on time.</p></body></html>',
  );
  const copy = (title: string, description: string, tooltip: string): GeneratedStep => ({
    ...step('/pricing.html', title),
    description,
    hotspots: [{ x: 0, y: 0, width: 0.1, height: 0.1, selector: 'x', label: title, tooltip, action: { type: 'next' } }],
  });
  const rubric = (steps: GeneratedStep[]) => {
    const result: GenerationResult = { captureMode: 'html', writer: 'builtin', title: 'L', warnings: [], pages: [steps[0]!.pageUrl], steps };
    const score = scoreSite(result, expected, steps.map(() => ({ missing: null, on: [{ place: expected.targets[1]!, relation: 'same' as const }] })));
    const withKeep = { ...expected, never: ['Ada Lindqvist'], targets: [expected.targets[0]!, { ...expected.targets[1]!, keep: ['Essentials', 'Growth'] }] };
    return rubricSite(result, withKeep, { ...score, steps: score.steps.map((s) => ({ ...s, target: withKeep.targets[1] })) }, new Map([['/pricing.html', page]]));
  };
  const failures = (steps: GeneratedStep[]) => rubric(steps).steps.map((s) => [...new Set(s.failures.map((f) => f.check))]);

  it('fails what issue 28 saw: a unit read as a name, lost plans, people listed, claims, repeated tooltips, builder words', () => {
    expect(
      failures([
        copy('Flat monthly pricing', 'Three plans to choose from: / mo. at $790 / mo.', 'Compare the plans side by side'),
        copy('Click “Get Started”', 'Click “Get Started” to create an account. It is the main call to action, right under the headline.', 'Click “Get Started”'),
        copy('Team', 'It covers Ada Lindqvist and Accordion Item #1.', 'Team'),
        copy('Flat monthly pricing and a title much longer than sixty characters in all', 'Essentials and Growth at $390/mo.', 'Start with the hero'),
      ]),
    ).toEqual([
      ['fragments', 'names'],
      ['names', 'claims', 'adds', 'jargon'],
      ['names', 'people', 'claims', 'adds'],
      ['claims', 'title', 'jargon'],
    ]);
  });

  it('passes words taken from the page in the tour’s neutral frame, and fails a sentence said twice', () => {
    const good = copy('Flat monthly pricing', 'Two plans: Essentials at $390/mo and Growth at $790/mo.', 'Growth is marked most popular');
    expect(failures([good])).toEqual([[]]);
    expect(failures([good, { ...good, title: 'Compare the plans' }])).toEqual([[], ['distinct']]);
  });
});

/**
 * The quality targets of issue 13 and the text rubric's automatic checks of issue 28 (timings are the
 * benchmark's business: npm run eval:generation prints them).
 */
function qualityMisses(rows: Row[]): string[] {
  return check(rows).filter((miss) => !/ s \(target \d+ s\)$/.test(miss));
}

describe('the generated tours of the corpus', () => {
  it('meets the targets in HTML mode: 85% good steps, 5 per site, every step with a hotspot, pages together, every step through the text rubric', async () => {
    const sites = await loadCorpus();
    const rows = await runEval({ sites, modes: ['html'], chromiumPath });
    expect(rows.length).toBe(sites.filter((s) => s.expected.modes.includes('html')).length);
    expect(qualityMisses(rows)).toEqual([]);
    const steps = rows.reduce((n, r) => n + (r.score?.steps.length ?? 0), 0);
    expect(rows.reduce((n, r) => n + (r.score?.good ?? 0), 0) / steps).toBeGreaterThanOrEqual(TARGETS.goodShare);
  });

  // No database is involved: the suite's second run, on PostgreSQL, need not spend the time on it again.
  // The sites whose pages the browser changes the most, as HTML mode cannot: a client-rendered app, entrance
  // animations, cookie banners over sticky headers, script-drawn charts. A Chromium capture is about 7 s a
  // site on a quiet machine and three times that under the suite's load, so the whole corpus (16 sites, over
  // 7 minutes here) is `npm run eval:generation -- --mode chromium --check`, run before a change to the
  // capture or the generator lands (docs/generation.md, Evaluation).
  it.skipIf(!hasChromium || !!process.env.TEST_DATABASE_URL)('meets them in Chromium mode, measured on the pages as the browser lays them out', async () => {
    const sites = (await loadCorpus()).filter((site) => CHROMIUM_SITES.includes(site.id));
    expect(sites.map((site) => site.id).sort()).toEqual([...CHROMIUM_SITES].sort());
    const rows = await runEval({ sites, modes: ['chromium'], chromiumPath });
    expect(rows.length).toBe(CHROMIUM_SITES.length);
    expect(rows.every((r) => r.score)).toBe(true);
    expect(qualityMisses(rows)).toEqual([]);
  }, 600_000);
});
