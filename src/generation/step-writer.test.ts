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
    expect(copies.at(-1)!.description).toBe('A team of four. It lists Craft and Speed.');
    expect(copies.at(-1)!.tooltip).toBe('On the About page');
  });

  it('sends a “Get started” into the documentation to reading, not to signing up', () => {
    const [, cta] = writeSteps(planSteps([home, pricing, about]), [home, pricing, about]);
    expect(cta!.title).toBe('Click “Get started”');
    expect(cta!.description).toBe('It opens the Micro documentation.');
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
    expect(step.description).toBe('Micro needs Node.js 20 or later. The sidebar leads on to Introduction, Configuration and API.');
    expect(step.tooltip).toBe('Next in the sidebar: “Configuration”');
  });
});

describe('words a marketer keeps', () => {
  const home = (elements: CapturedElement[]) =>
    page('https://quill.example/', 'Quillhub — The shared inbox', [
      el('heading', 'Answer every customer from one calm inbox', '#hero', { detail: 'h1', context: 'Quillhub turns support@ into a shared inbox.' }),
      el('button', 'Get Started', '#start', { href: 'https://quill.example/pricing.html', detail: 'primary' }),
      ...elements,
    ]);
  const pricing = page('https://quill.example/pricing.html', 'Pricing — Quillhub', [
    el('heading', 'Pricing', '#title', { detail: 'h1' }),
    el('pricing', 'Pricing', '#plans', { items: ['Starter at $29/mo', 'Pro at $79/mo (most popular)', 'Enterprise on request'] }),
  ]);

  it('reads every plan by its name and price, and the popular one in the tooltip', () => {
    const pages = [home([]), pricing];
    const plan = planSteps(pages);
    const copy = writeSteps(plan, pages)[plan.findIndex((s) => s.role === 'pricing')]!;
    expect(copy.title).toBe('Compare the plans');
    expect(copy.description).toBe('Three plans: Starter at $29/mo, Pro at $79/mo (most popular) and Enterprise on request.');
    expect(copy.tooltip).toBe('Pro is marked most popular');
  });

  it('says where “Get Started” leads, never that it creates an account', () => {
    const pages = [home([]), pricing];
    const [, cta] = writeSteps(planSteps(pages), pages);
    expect(cta).toMatchObject({ title: 'Click “Get Started”', description: 'It opens the Pricing page.', tooltip: 'Opens the Pricing page' });
  });

  it('describes a team without listing its people, and a FAQ by its questions', () => {
    const pages = [
      home([
        el('other', 'Meet the team', '#team', { detail: 'team', items: ['Ada Lindqvist', 'Tomás Reyes', 'Priya Natarajan'] }),
        el('other', 'Questions', '#faq', { detail: 'faq', items: ['How long does setup take?', 'Can I cancel at any time?'] }),
      ]),
    ];
    const plan = planSteps(pages);
    const copies = writeSteps(plan, pages);
    const team = copies[plan.findIndex((s) => s.role === 'team')]!;
    expect(team.title).toBe('Meet the team');
    expect(team.description).toBe('Three people, each with their role.');
    expect(JSON.stringify(team)).not.toMatch(/Ada|Tomás|Priya/);
    const faq = copies[plan.findIndex((s) => s.role === 'faq')]!;
    expect(faq.description).toBe('Two questions with their answers, starting with “How long does setup take?”');
  });

  it('never uses builder words, and the tooltip adds to the title', () => {
    const pages = [home([el('other', 'Everything a support team needs', '#features', { detail: 'features', items: ['Shared inbox', 'SLA timers'] })]), pricing];
    for (const copy of writeSteps(planSteps(pages), pages)) {
      expect(`${copy.title} ${copy.description} ${copy.tooltip}`).not.toMatch(/\bhero\b|call to action|\bCTA\b|\bsection\b|headline/i);
      expect(copy.tooltip.toLowerCase()).not.toBe(copy.title.toLowerCase());
      expect(copy.title.length).toBeLessThanOrEqual(60);
    }
  });

  it('says a documentation blurb once in a tour, not on every chapter', () => {
    const chapter = (slug: string, title: string) =>
      page(`https://micro.example/docs/${slug}.html`, `${title} | Micro`, [
        el('nav', 'Docs', '#sidebar', { detail: 'sidebar', items: ['Introduction', 'Installation', 'Configuration'] }),
        el('heading', title, '#title', { detail: 'h1', context: 'Micro is a toolkit for small teams.' }),
      ]);
    const pages = [
      page('https://micro.example/', 'Micro — Ship faster', [el('heading', 'Ship faster', '#hero', { detail: 'h1' })]),
      chapter('intro', 'Introduction'),
      chapter('install', 'Installation'),
      chapter('config', 'Configuration'),
    ];
    const copies = writeSteps(planSteps(pages), pages);
    const bodies = copies.map((c) => c.description);
    expect(new Set(bodies).size).toBe(bodies.length);
    expect(bodies.filter((b) => b.includes('Micro is a toolkit for small teams.'))).toHaveLength(1);
    expect(bodies.filter((b) => b.includes('The sidebar leads on to'))).toHaveLength(1);
  });

  it('keeps a headline too long for a title whole in the body, and never cuts a title mid-phrase', () => {
    const long = 'Features built for stores shipping 10 to 10,000 orders a month without hiring';
    const pages = [
      page('https://p.example/', 'Parcelbird', [el('heading', 'Ship before lunch', '#hero', { detail: 'h1' })]),
      page('https://p.example/features.html', 'Features | Parcelbird', [el('heading', long, '#title', { detail: 'h1' })]),
    ];
    const copy = writeSteps(planSteps(pages), pages).at(-1)!;
    expect(copy.title).toBe('Features');
    expect(copy.description).toBe(`“${long}”.`);
    expect(copy.title).not.toContain('…');
  });
});
