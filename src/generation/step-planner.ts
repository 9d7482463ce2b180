// Which elements of the captured pages become steps, and in what order: page by page, as a visitor meets them, with no model involved.
import type { CapturedElement, CapturedPage } from './generation.types';
import { pageKey } from './link-picker';

export type StepRole = 'hero' | 'cta' | 'nav' | 'kpis' | 'chart' | 'table' | 'features' | 'team' | 'faq' | 'form' | 'pricing' | 'page' | 'section';

/** One step of the tour before it has words: which page, which element, and what part it plays. */
export interface PlannedStep {
  role: StepRole;
  page: CapturedPage;
  pageIndex: number;
  element: CapturedElement;
  /** A page step's people or questions (a team grid, a FAQ), which the step describes with the page's headline. */
  group?: CapturedElement;
}

/** The order a visitor meets a product: what it is, what to do, where things are, what it does, how to join, what it costs. */
const ORDER: StepRole[] = ['hero', 'cta', 'nav', 'page', 'kpis', 'chart', 'table', 'features', 'team', 'faq', 'form', 'pricing', 'section'];
export const MIN_STEPS = 4;
export const MAX_STEPS = 10;
const CTA_WORDS = /start|try|get started|sign ?up|free|demo|book|request|join|create|buy|subscribe|download/i;

/**
 * The tour's steps: every candidate but bare sections (those only while fewer than MIN_STEPS), page by
 * page in visiting order, at most MAX_STEPS.
 */
export function planSteps(pages: CapturedPage[]): PlannedStep[] {
  const offered = candidateSteps(pages);
  const planned = offered.filter((step) => step.role !== 'section');
  if (planned.length < MIN_STEPS) {
    const titles = new Set(planned.map((p) => p.element.text));
    for (const section of offered.filter((step) => step.role === 'section')) {
      if (titles.has(section.element.text)) continue;
      titles.add(section.element.text);
      planned.push(section);
    }
  }
  // A tour walks the site as a visitor would: page by page in the order they were visited, each page's
  // steps together in the order a visitor meets them. Sorting by role across pages jumped back and forth.
  return planned.sort((a, b) => rankOf(a) - rankOf(b)).slice(0, MAX_STEPS);
}

/**
 * Every step the pages offer, in tour order (page by page, each page's in the order a visitor meets
 * them): what `planSteps` chooses from, and what an AI writer may choose from instead.
 */
export function candidateSteps(pages: CapturedPage[]): PlannedStep[] {
  const app = isApp(pages[0]);
  const seen = new Set<string>();
  const all: PlannedStep[] = [];
  pages.forEach((page, pageIndex) => {
    for (const candidate of offeredBy(page, pageIndex, app)) {
      const key = `${pageKey(page.url)} ${candidate.element.selector}`;
      if (seen.has(key)) continue;
      seen.add(key);
      all.push({ ...candidate, page, pageIndex });
    }
  });
  return all.sort((a, b) => rankOf(a) - rankOf(b));
}

const rankOf = (step: PlannedStep) => step.pageIndex * 1000 + ORDER.indexOf(step.role);

/**
 * The elements of one page that a tour may show (`index` is its place in the visit, 0 for the start
 * page): the capture takes a screenshot for each of these, and no other, before the tour is planned.
 */
export function elementsToShow(page: CapturedPage, index: number, first: CapturedPage = page): CapturedElement[] {
  return offeredBy(page, index, isApp(first)).map((c) => c.element);
}

/** What one page offers: its own steps, then a few titled sections should the tour find too little else. */
function offeredBy(page: CapturedPage, index: number, app: boolean): Candidate[] {
  return [...candidatesOf(page, index, app), ...sectionsOf(page).slice(0, MAX_SECTIONS)];
}

const MAX_SECTIONS = 3;

/**
 * A web application's screens (an admin dashboard) rather than a marketing site: the start page shows
 * figures and a chart or a table. Its tour shows the figures, charts and tables, not features and prices.
 */
function isApp(first: CapturedPage | undefined): boolean {
  const details = new Set(first?.elements.map((e) => e.detail));
  return details.has('kpis') && (details.has('chart') || details.has('table'));
}

interface Candidate {
  role: StepRole;
  element: CapturedElement;
  group?: CapturedElement;
}

/** The steps one page offers by itself, each on an element that can carry a hotspot. */
function candidatesOf(page: CapturedPage, index: number, app: boolean): Candidate[] {
  const found: Candidate[] = [];
  const add = (role: StepRole, el: CapturedElement | undefined) => {
    const element = el && fitted(page, role, el);
    if (element && !found.some((c) => c.element.selector === element.selector)) found.push({ role, element });
  };
  // With screenshots, only what the browser laid out can carry a hotspot.
  const els = page.screenshot ? page.elements.filter((e) => e.box && e.box.width > 0 && e.box.height > 0) : page.elements;
  const h1Index = els.findIndex((e) => e.kind === 'heading' && (e.detail === 'h1' || e.detail === 'display'));
  if (index === 0) {
    const heroIndex = heroOf(els);
    add('hero', els[heroIndex]);
    if (!app) add('cta', primaryAction(els, heroIndex));
    // The main navigation is the one with the most places to go (a dashboard's sidebar, not its top bar).
    add('nav', mostLinks(els.filter((e) => e.kind === 'nav' && (e.items?.length ?? 0) >= 2)));
  }
  if (app) {
    if (index > 0) add('page', els[h1Index] ?? els.find((e) => e.kind === 'heading' && e.detail !== 'lead'));
    add('kpis', els.find((e) => e.detail === 'kpis'));
    add('chart', els.find((e) => e.detail === 'chart'));
    add('table', els.find((e) => e.detail === 'table'));
    add('form', els.find((e) => e.kind === 'form' && (e.items?.length ?? 0) >= 2));
    return found;
  }
  const features = els.find((e) => e.detail === 'features');
  const form = els.find((e) => e.kind === 'form' && (e.items?.length ?? 0) >= 2);
  const pricing = els.find((e) => e.kind === 'pricing' && (e.items?.length ?? 0) >= 2);
  // A team (people with their roles) and a list of questions are read as what they are, not as features.
  const team = els.find((e) => e.detail === 'team' && (e.items?.length ?? 0) >= 2);
  const faq = els.find((e) => e.detail === 'faq' && (e.items?.length ?? 0) >= 2);
  if (index === 0) {
    add('features', features);
    add('team', team);
    add('faq', faq);
    add('form', form);
    add('pricing', pricing);
    return found;
  }
  // A further page is introduced by its own headline, which the step reads with the page's cards (the
  // services of a services page); pricing and forms are what a visitor comes to the page for, and a
  // team page or a FAQ page is its people or its questions.
  add('pricing', pricing);
  add('form', form);
  if (found.length === 0) {
    const headline = els[h1Index];
    const group = team ?? faq;
    if (headline) add('page', !group && features ? { ...headline, items: features.items } : headline);
    else if (team) add('team', team);
    else if (faq) add('faq', faq);
    else add('features', features);
    if (group && found[0]?.role === 'page') found[0].group = group;
  }
  if (found.length === 0) add('page', els.find((e) => e.kind === 'heading' && e.detail !== 'lead'));
  return found;
}

function mostLinks(navs: CapturedElement[]): CapturedElement | undefined {
  return navs.reduce<CapturedElement | undefined>((best, nav) => (!best || (nav.items?.length ?? 0) > (best.items?.length ?? 0) ? nav : best), undefined);
}

/** Titled sections with prose under them: steps for a tour that found too little else. */
function sectionsOf(page: CapturedPage): Candidate[] {
  return page.elements
    .filter((el) => el.kind === 'heading' && (el.detail === 'h2' || el.detail === 'h3') && el.context)
    .map((el) => fitted(page, 'section', el))
    .filter((el): el is CapturedElement => el !== undefined)
    .map((element) => ({ role: 'section' as const, element }));
}

/** A hotspot larger than this share of the screen points at nothing in particular. */
const MAX_HOTSPOT_SHARE = 0.4;

/**
 * The element a step's hotspot can sit on, when boxes are known (Chromium mode): none without a box. A "features grid" as
 * large as the screen is a page's content area, not a grid: no step. Any other element too large for a
 * hotspot gives way to its heading (a group's title), or gives no step.
 */
function fitted(page: CapturedPage, role: StepRole, el: CapturedElement): CapturedElement | undefined {
  const box = el.box;
  // With screenshots, a step shows its element: one the browser did not lay out would get a hotspot
  // on nothing.
  if (page.screenshot && (!box || box.width <= 0 || box.height <= 0)) return undefined;
  if (!box || page.width <= 0 || page.height <= 0) return el;
  if (role === 'features' && box.width > 0.75 * page.width && box.height > 0.85 * page.height) return undefined;
  if ((box.width * box.height) / (page.width * page.height) <= MAX_HOTSPOT_SHARE) return el;
  if (el.focus?.box) return { ...el, selector: el.focus.selector, box: el.focus.box };
  const heading = page.elements.find((e) => e !== el && e.kind === 'heading' && e.text === el.text && e.box);
  return heading ? { ...el, selector: heading.selector, box: heading.box } : undefined;
}

/** Where the first screen ends, in page pixels, when the capture measured boxes (Chromium mode). */
const FIRST_SCREEN = 900;

/**
 * The hero: the first headline (an h1 or text set as a display heading) in the first screen, else a lead
 * paragraph there (a hero without a heading), else the first headline anywhere, else the first heading.
 * Logos are links, never headings (html-elements.ts).
 */
function heroOf(els: CapturedElement[]): number {
  const onFirstScreen = (e: CapturedElement) => !e.box || e.box.y < FIRST_SCREEN;
  const headline = (e: CapturedElement) => e.kind === 'heading' && (e.detail === 'h1' || e.detail === 'display');
  const lead = (e: CapturedElement) => e.kind === 'heading' && e.detail === 'lead';
  // With sizes measured, the most prominent headline of the first screen (a larger one further down
  // the hero beats a small heading above it); else the first.
  const sized = els
    .map((e, i) => [e, i] as const)
    .filter(([e]) => headline(e) && onFirstScreen(e) && e.size)
    .sort(([a, i], [b, j]) => (b.size ?? 0) - (a.size ?? 0) || i - j);
  if (sized[0]) return sized[0][1];
  for (const test of [(e: CapturedElement) => headline(e) && onFirstScreen(e), (e: CapturedElement) => lead(e) && onFirstScreen(e), headline]) {
    const i = els.findIndex(test);
    if (i >= 0) return i;
  }
  return els.findIndex((e) => e.kind === 'heading' && e.detail !== 'lead');
}

/** The call to action of the hero: a primary button after the headline, before the next section. */
function primaryAction(els: CapturedElement[], heroIndex: number): CapturedElement | undefined {
  if (heroIndex >= 0) {
    const rest = els.slice(heroIndex + 1);
    // The hero ends at the next section: a heading, but not the lead paragraph under the headline.
    const end = rest.findIndex((e) => (e.kind === 'heading' && e.detail !== 'lead') || e.detail === 'features' || e.kind === 'pricing');
    const hero = end >= 0 ? rest.slice(0, end) : rest.slice(0, 8);
    const found =
      hero.find((e) => e.kind === 'button' && e.detail === 'primary') ??
      hero.find((e) => e.kind === 'button') ??
      hero.find((e) => e.kind === 'link' && CTA_WORDS.test(e.text));
    if (found) return found;
  }
  return (
    els.find((e) => e.kind === 'button' && e.detail === 'primary' && CTA_WORDS.test(e.text)) ??
    els.find((e) => (e.kind === 'button' || e.kind === 'link') && CTA_WORDS.test(e.text))
  );
}
