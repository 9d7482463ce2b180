import { describe, expect, it } from 'vitest';
import type { CapturedElement, CapturedPage } from './generation.types';
import { planSteps } from './step-planner';
import { pageName, writeSteps } from './step-writer';

const page = (url: string, title: string, elements: CapturedElement[]): CapturedPage => ({
  url,
  title,
  description: '',
  width: 1280,
  height: 800,
  elements,
});
const el = (kind: CapturedElement['kind'], text: string, selector: string, extra: Partial<CapturedElement> = {}): CapturedElement => ({
  kind,
  text,
  selector,
  ...extra,
});

describe('the built-in tour', () => {
  const home = page('https://micro.example/', 'Micro — Ship faster', [
    el('heading', 'Ship faster with Micro', '#hero', { detail: 'h1', context: 'The toolkit for small teams.' }),
    el('link', 'Get started', '#start', { href: 'https://micro.example/docs/getting-started.html' }),
    el('nav', 'Main', '#nav', { items: ['Features', 'Docs', 'Pricing'] }),
    el('other', 'Features', '#features', { detail: 'features', items: ['Fast', 'Small', 'Typed'] }),
  ]);
  const pricing = page('https://micro.example/pricing.html', 'Pricing | Micro', [
    el('heading', 'Plans for every team', '#plans-title', { detail: 'h1' }),
    el('pricing', 'Plans', '#plans', { items: ['Free at $0', 'Team at $9/month'] }),
  ]);
  const about = page('https://micro.example/about.html', 'Micro - About', [
    el('heading', 'Who we are', '#about', { detail: 'h1', context: 'A team of four.' }),
    el('other', 'What we value', '#values', { detail: 'features', items: ['Craft', 'Speed'] }),
  ]);

  it('walks the pages in the order they were visited, each page’s steps together', () => {
    const plan = planSteps([home, pricing, about]);
    expect(plan.map((s) => [s.pageIndex, s.role])).toEqual([
      [0, 'hero'],
      [0, 'cta'],
      [0, 'nav'],
      [0, 'features'],
      [1, 'pricing'],
      [2, 'page'],
    ]);
  });

  it('names a page by the part of its title that is not the site’s name', () => {
    expect(pageName(about, 'Micro')).toBe('About');
    expect(pageName(pricing, 'Micro')).toBe('Pricing');
    expect(pageName(page('https://micro.example/team.html', 'Micro', []), 'Micro')).toBe('team');
    expect(pageName(page('https://micro.example/', 'Welcome', []), 'Micro')).toBe('Welcome');
    const copies = writeSteps(planSteps([home, pricing, about]), [home, pricing, about]);
    // A further page is introduced by its headline, with what its cards cover.
    expect(copies.at(-1)!.description).toBe('On the About page: “Who we are”. A team of four. It covers Craft and Speed.');
  });

  it('sends a “Get started” into the documentation to reading, not to signing up', () => {
    const [, cta] = writeSteps(planSteps([home, pricing, about]), [home, pricing, about]);
    expect(cta!.title).toBe('Click “Get started”');
    expect(cta!.description).toContain('read how to get started with Micro');
    expect(cta!.description).not.toContain('create an account');
  });
});

describe('hotspots that point at something', () => {
  const box = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });
  it('moves a hotspot too large for the screen to its group’s heading, and takes a content area for no features grid', () => {
    const home = page('https://micro.example/', 'Micro', [
      el('heading', 'Ship faster', '#hero', { detail: 'h1', box: box(100, 100, 600, 60) }),
      el('link', 'Get started', '#start', { href: 'https://micro.example/signup', box: box(100, 200, 120, 40) }),
      el('heading', 'Plans', '#plans-title', { detail: 'h2', box: box(100, 900, 300, 40) }),
      el('pricing', 'Plans', '#plans', { items: ['Free at $0', 'Team at $9'], box: box(0, 950, 1280, 700) }),
    ]);
    const docs = page('https://micro.example/docs.html', 'Docs | Micro', [
      el('heading', 'Guides', '#guides', { detail: 'h1', box: box(300, 80, 400, 50) }),
      el('other', 'Guides', '#content', { detail: 'features', items: ['Install', 'Deploy'], box: box(240, 40, 1040, 760) }),
    ]);
    const plan = planSteps([home, docs]);
    const pricing = plan.find((s) => s.role === 'pricing');
    expect(pricing?.element).toMatchObject({ selector: '#plans-title', items: ['Free at $0', 'Team at $9'] });
    expect(plan.some((s) => s.role === 'features')).toBe(false);
    expect(plan.find((s) => s.pageIndex === 1)).toMatchObject({ role: 'page', element: { selector: '#guides' } });
  });
});

describe('words that fit', () => {
  it('never says “Navigation navigation”', () => {
    const named = (text: string) =>
      writeSteps(planSteps([page('https://a.example/', 'A', [el('heading', 'Hi', '#h', { detail: 'h1' }), el('nav', text, '#n', { items: ['One', 'Two'] })])]), [
        page('https://a.example/', 'A', []),
      ]).find((c) => c.title === 'Find your way around')!.label;
    expect(named('Navigation')).toBe('Navigation');
    expect(named('Main menu')).toBe('Main menu');
    expect(named('Main')).toBe('Main navigation');
  });
});

describe('no step without a hotspot', () => {
  it('plans nothing on an element the browser did not lay out, when the page has screenshots', () => {
    const shot = Buffer.from('png');
    const withShots = {
      ...page('https://a.example/', 'A', [
        el('heading', 'Unmeasured', '#ghost', { detail: 'h1' }),
        el('heading', 'Measured', '#real', { detail: 'h1', box: { x: 10, y: 10, width: 300, height: 40 } }),
      ]),
      screenshot: shot,
    };
    expect(planSteps([withShots])[0]).toMatchObject({ role: 'hero', element: { selector: '#real' } });
  });

  it('reads a documentation page as a chapter of the docs, with where its sidebar leads', () => {
    const home = page('https://micro.example/', 'Micro — Ship faster', [
      el('heading', 'Ship faster with Micro', '#hero', { detail: 'h1' }),
      el('nav', 'Main', '#nav', { items: ['Docs', 'Pricing'] }),
    ]);
    const install = page('https://micro.example/docs/installation.html', 'Installation | Micro', [
      el('nav', 'Docs', '#sidebar', { detail: 'sidebar', items: ['Introduction', 'Installation', 'Configuration', 'API'] }),
      el('heading', 'Installation', '#title', { detail: 'h1', context: 'Micro needs Node.js 20 or later.' }),
    ]);
    const plan = planSteps([home, install]);
    const copies = writeSteps(plan, [home, install]);
    const step = copies[plan.findIndex((p) => p.pageIndex === 1)]!;
    expect(step.description).toBe(
      'In the documentation: “Installation”. Micro needs Node.js 20 or later. The sidebar leads on to Introduction, Configuration and API.',
    );
    expect(step.tooltip).toBe('Read “Installation”');
  });
});
