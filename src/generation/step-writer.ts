import type { CapturedElement, CapturedPage } from './generation.types';
import { clip } from './html-elements';
import type { PlannedStep } from './step-planner';

/** The separators sites put between a page's name and their own in `<title>`. */
const TITLE_PARTS = /\s+[—–|·:-]\s+/;

/** The words of one step: what the player shows as title and body, and on the hotspot. */
export interface StepCopy {
  title: string;
  description: string;
  /** Short name of the hotspot's element. */
  label: string;
  tooltip: string;
}

/**
 * The built-in writer: step text from what the page itself says (headings, button labels, field
 * labels, the page title and description), with no network and no model. Deterministic, so the same
 * page always gives the same tour. It adds no claim of its own: a button is described by where it leads,
 * not by what it might do, and the only words it brings are the tour's (click, fill in, the menu, plans).
 * Builder words ("hero", "call to action", "section") are for the people who make pages, never in the text.
 */
export function writeSteps(steps: PlannedStep[], pages: CapturedPage[]): StepCopy[] {
  const site = siteName(pages);
  const copies: StepCopy[] = [];
  const titles = new Set<string>();
  const said: string[] = [];
  const tour: TourState = { sidebarShown: false, pages };
  for (const step of steps) {
    const { parts, ...copy } = writeOne(step, site, tour);
    // Two steps with one title read as a mistake: the later one says what it is about.
    if (titles.has(copy.title.toLowerCase())) copy.title = otherTitle(step, site, copy.title);
    titles.add(copy.title.toLowerCase());
    // A sentence said once is not said again (a documentation blurb on every page, a page's description).
    const fresh = parts.filter((part) => part && !said.some((earlier) => alike(part, earlier)));
    said.push(...fresh);
    copies.push({ ...copy, description: fresh.join(' ') || sentence(`The ${pageName(step.page, site)} page of ${site}`) });
  }
  return copies;
}

/** A step's words before the tour is put together: its body as separate sentences, so repeats can be left out. */
type Draft = Omit<StepCopy, 'description'> & { parts: string[] };

interface TourState {
  /** The documentation's sidebar has been described once: later chapters do not repeat it. */
  sidebarShown: boolean;
  pages: CapturedPage[];
}

const MAX_TITLE = 60;

function writeOne(step: PlannedStep, site: string, tour: TourState): Draft {
  const el = step.element;
  const text = el.text;
  const here = pageName(step.page, site);
  const label = short(text, MAX_TITLE) ?? capitalise(here);
  switch (step.role) {
    case 'hero': {
      const pitch = prose(el.context ?? step.page.description, 2);
      const title = short(text, MAX_TITLE) ?? site;
      return {
        title,
        parts: [title !== text ? quote(text) : '', pitch || sentence(`The ${here} page of ${site}`)],
        label,
        tooltip: pitch ? 'The first thing a visitor reads' : `The first screen of ${site}`,
      };
    }
    case 'cta': {
      const where = destination(el.href, step.page, tour.pages, site);
      const title = text.length <= MAX_TITLE - 8 ? `Click “${text}”` : 'Click the main button';
      return {
        title,
        parts: [where ? sentence(`It ${where.says}`) : sentence(`The main button of the ${here} page`)],
        label,
        tooltip: where ? capitalise(where.says) : 'The main button of this page',
      };
    }
    case 'nav': {
      // A link's arrow or chevron is decoration, not part of its name.
      const items = (el.items ?? [])
        .map((item) => item.replace(/[\s→›»↗←‹«]+$/u, '').trim())
        .filter((item) => item && item.toLowerCase() !== site.toLowerCase() && !/^home$/i.test(item));
      const kind = el.detail === 'sidebar' ? 'sidebar' : 'menu';
      return {
        title: 'Find your way around',
        parts: [sentence(`The ${kind} links to ${list(items)}`)],
        label: clip(/\b(navigation|menu|nav)$/i.test(text) ? text : `${text} navigation`, MAX_TITLE),
        tooltip: items[0] ? `${countWord(items.length)} links, starting with ${items[0]}` : `The ${kind}`,
      };
    }
    case 'features': {
      const items = names(el.items ?? []);
      const about = prose(el.context, 1);
      const title = text === 'Features' ? `${site} at a glance` : (short(text, MAX_TITLE) ?? `${site} at a glance`);
      // "Features" is what the capture calls a group without a heading: the label says what the step does.
      const named = text === 'Features' ? title : label;
      if (items.length < 2) return { title, parts: [items.length ? sentence(list(items)) : '', about || prose(step.page.description, 1)], label: named, tooltip: `Part of the ${here} page` };
      return {
        title,
        parts: [sentence(list(items)), about],
        label: named,
        tooltip: `Start with “${short(items[0]!, 50) ?? items[0]}”`,
      };
    }
    case 'team': {
      const count = el.items?.length ?? 0;
      const about = prose(el.context, 1);
      // People are shown with their faces and roles; the tour describes the team and names no one.
      return {
        title: text === 'Features' ? `The ${site} team` : (short(text, MAX_TITLE) ?? `The ${site} team`),
        parts: [sentence(`${countWord(count)} people, each with their role`), about],
        label: text === 'Features' ? `The ${site} team` : label,
        tooltip: `The people behind ${site}`,
      };
    }
    case 'faq': {
      const questions = (el.items ?? []).filter((q) => q.length <= 120);
      const first = questions[0];
      return {
        title: short(text, MAX_TITLE) ?? 'Questions and answers',
        parts: [sentence(`${countWord(questions.length)} questions with their answers${first ? `, starting with “${first}”` : ''}`)],
        label,
        tooltip: 'Open a question to read its answer',
      };
    }
    case 'form': {
      // A label is what a visitor reads: "Your Name *" is "Your Name", and a question's options are not part of it.
      const fields = (el.items ?? []).map((f) => f.replace(/\s*\*$/, '').replace(/\?\s.*$/, '?')).filter((f) => !f.endsWith('…'));
      const submit = el.detail;
      const buying = /add to (cart|bag|basket)|buy|order/i.test(submit ?? '');
      // A form without a heading is named by its button: a purchase keeps it ("Add to cart"), any other says what to do.
      const unnamed = submit !== undefined && text.toLowerCase() === submit.toLowerCase();
      const title = unnamed ? (buying ? (short(submit, MAX_TITLE) ?? 'Fill in the form') : 'Fill in the form') : (short(text, MAX_TITLE) ?? 'Fill in the form');
      return {
        title,
        parts: [sentence(`${buying ? 'Choose' : 'Fill in'} ${list(fields.map((f) => `“${f}”`))}${submit ? `, then press “${submit}”` : ''}`), prose(el.context, 1)],
        label,
        tooltip: submit
          ? unnamed
            ? `${countWord(fields.length)} ${buying ? 'choices' : 'fields'}, then “${short(submit, 40) ?? submit}”`
            : `Fill in the form and press “${short(submit, 40) ?? submit}”`
          : 'Fill in the form',
      };
    }
    case 'pricing': {
      const plans = el.items ?? [];
      const popular = plans.find((p) => /\((most popular|popular|recommended|best value)/i.test(p));
      const generic = /^(pricing|plans|pricing plans|our plans|prices)$/i.test(text);
      return {
        title: generic ? 'Compare the plans' : (short(text, MAX_TITLE) ?? 'Compare the plans'),
        // A further page's description is about its prices; the start page's is about the whole site.
        parts: [sentence(`${countWord(plans.length)} plans: ${list(plans)}`), step.pageIndex > 0 ? prose(step.page.description, 1) : ''],
        label,
        tooltip: popular ? `${popular.replace(/\s+(at|on)\s.*$/, '')} is marked ${popular.match(/\(([^)]+)\)/)?.[1] ?? 'most popular'}` : `${countWord(plans.length)} plans to compare`,
      };
    }
    case 'page':
      return pageCopy(step, site, tour, label);
    case 'kpis': {
      const items = el.items ?? [];
      return {
        title: text === 'Key figures' || (short(text, MAX_TITLE) ?? '') === '' ? 'Key figures at a glance' : (short(text, MAX_TITLE) ?? 'Key figures at a glance'),
        parts: [sentence(`${countWord(items.length)} key figures: ${list(items)}`)],
        label,
        tooltip: items[0] ? `Start with “${short(items[0], 50) ?? items[0]}”` : 'The figures that matter most',
      };
    }
    case 'chart':
      return {
        title: text === 'Chart' ? 'Read the chart' : (short(text, MAX_TITLE) ?? 'Read the chart'),
        parts: [sentence(`The “${text}” chart on the ${here} page shows the trend behind the numbers`)],
        label,
        tooltip: `A chart on the ${here} page`,
      };
    case 'table': {
      const columns = el.items ?? [];
      return {
        title: text === 'Table' ? 'Browse the records' : (short(text, MAX_TITLE) ?? 'Browse the records'),
        parts: [sentence(`The “${text}” table lists each entry${columns.length ? ` with its ${list(columns.map((c) => (/^no\.?$/i.test(c) ? 'number' : c.toLowerCase().replace(/[.:]$/, ''))))}` : ''}`)],
        label,
        tooltip: columns.length ? `${countWord(columns.length)} columns, one row per entry` : `The “${short(text, 50) ?? 'records'}” table`,
      };
    }
    case 'section': {
      const about = prose(el.context, 2);
      return {
        title: short(text, MAX_TITLE) ?? here,
        parts: [about || sentence(`Part of the ${here} page`)],
        label,
        tooltip: `Part of the ${here} page`,
      };
    }
  }
}

/** A further page, by its headline: what the page says about itself, and what its cards list. */
function pageCopy(step: PlannedStep, site: string, tour: TourState, label: string): Draft {
  const el = step.element;
  const text = el.text;
  const here = pageName(step.page, site);
  const title = short(text, MAX_TITLE) ?? capitalise(here);
  const about = prose(el.context ?? step.page.description, 2);
  const whole = title !== text ? quote(text) : '';
  const docs = docsSidebar(step.page);
  if (docs) {
    // A documentation page reads as a chapter of the docs; where the sidebar leads is said once per tour.
    const next = (docs.items ?? []).filter((item) => item.toLowerCase() !== text.toLowerCase());
    const sidebar = !tour.sidebarShown && next.length ? sentence(`The sidebar leads on to ${list(next)}`) : '';
    if (sidebar) tour.sidebarShown = true;
    // The chapter after this one in the sidebar: a tooltip of its own on every page of the docs.
    const items = docs.items ?? [];
    const at = items.findIndex((item) => item.toLowerCase() === text.toLowerCase());
    const after = at >= 0 ? items[at + 1] : undefined;
    return {
      title,
      parts: [whole, about, sidebar],
      label,
      tooltip: after
        ? `Next in the sidebar: “${short(after, 50) ?? after}”`
        : next[0]
          ? `The sidebar starts at “${short(next[0], 50) ?? next[0]}”`
          : `A chapter of the ${site} documentation`,
    };
  }
  const items = names(el.items ?? []);
  return {
    title,
    parts: [whole, about, items.length ? sentence(`It lists ${list(items)}`) : '', ...groupParts(step.group)],
    label,
    tooltip: here.toLowerCase() === title.toLowerCase() ? `A page of ${site}` : `On the ${here} page`,
  };
}

/** What a page's team or questions add to its step: how many, never the people's names. */
function groupParts(group: CapturedElement | undefined): string[] {
  const items = group?.items ?? [];
  if (group?.detail === 'team') return [sentence(`${countWord(items.length)} people, each with their role`)];
  if (group?.detail === 'faq') return [sentence(`${countWord(items.length)} questions with their answers, starting with “${items[0]}”`)];
  return [];
}

/** Another title for a step whose title an earlier step took: its page's name, or what kind of step it is. */
function otherTitle(step: PlannedStep, site: string, title: string): string {
  const here = pageName(step.page, site);
  const withPage = `${title} on the ${here} page`;
  if (here.toLowerCase() !== title.toLowerCase() && withPage.length <= MAX_TITLE) return withPage;
  const byRole: Partial<Record<PlannedStep['role'], string>> = {
    table: `Browse the ${title.toLowerCase()}`,
    kpis: 'Key figures at a glance',
    form: 'Fill in the form',
    pricing: 'Compare the plans',
    faq: 'Questions and answers',
    team: `The ${site} team`,
    features: `${site} at a glance`,
  };
  const other = byRole[step.role];
  return other && other.length <= MAX_TITLE ? other : `${capitalise(here)}: ${step.role === 'page' ? 'overview' : 'details'}`;
}

/**
 * Where a button leads, in words the pages support: another captured page by its name, the
 * documentation, or further down the same page. Undefined when the tour cannot tell.
 */
function destination(href: string | undefined, from: CapturedPage, pages: CapturedPage[], site: string): { says: string } | undefined {
  if (!href) return undefined;
  let url: URL;
  try {
    url = new URL(href, from.url);
  } catch {
    return undefined;
  }
  const same = (page: CapturedPage) => {
    const other = new URL(page.url);
    return other.origin === url.origin && other.pathname.replace(/\/index\.html?$/, '/') === url.pathname.replace(/\/index\.html?$/, '/');
  };
  if (same(from) && url.hash) return { says: 'leads further down this page' };
  if (READING.test(url.pathname) && url.origin === new URL(from.url).origin) return { says: `opens the ${site} documentation` };
  const page = pages.find((p) => p !== from && same(p));
  if (page) return { says: `opens the ${pageName(page, site)} page` };
  return undefined;
}

/** Names of things (features, services, products), not sentences: a card title that is prose is left out. */
function names(items: string[]): string[] {
  return items.filter((item) => !/[.!:;]$/.test(item.trim()) && item.split(/\s+/).length <= 8 && !/…$/.test(item));
}

/**
 * Up to `max` whole sentences of a page's prose, or '' when it reads as a fragment (it starts in
 * lower case, ends on a colon) or was clipped before its first full stop.
 */
function prose(text: string | undefined, max: number): string {
  const clean = (text ?? '').replace(/\s+/g, ' ').trim();
  if (!clean || !/^[\p{Lu}\p{N}“"‘'(]/u.test(clean) || /:$/.test(clean)) return '';
  const whole = clean
    .split(SENTENCE_END)
    .map((p) => p.trim())
    .filter((p) => p && !p.endsWith('…'));
  if (whole.length === 0) return '';
  return whole
    .slice(0, max)
    .map((p) => sentence(p))
    .join(' ');
}

/** Where one sentence ends and the next begins: "Node.js" and "v5.2.3" are not ends. */
const SENTENCE_END = /(?<=[.!?][”"’)]?)\s+(?=[\p{Lu}\p{N}“"‘(])/u;

function alike(a: string, b: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, '').split(/\s+/).filter(Boolean);
  const wa = norm(a);
  const wb = norm(b);
  if (wa.join(' ') === wb.join(' ')) return true;
  if (wa.length < 5 || wb.length < 5) return false;
  const sb = new Set(wb);
  const shared = new Set(wa.filter((w) => sb.has(w))).size;
  return shared / new Set([...wa, ...wb]).size >= 0.75;
}

/**
 * `text` if it fits in `max` characters; else its first clause (before a comma, colon or dash) when that
 * fits and says something (three words or more); else undefined: never a phrase cut in the middle.
 */
function short(text: string, max: number): string | undefined {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (!clean) return undefined;
  if (clean.length <= max) return clean;
  // A comma between words ends a clause; one inside a number ("10,000") does not.
  const clause = clean.split(/\s*[:;—–(]\s*|,\s+|\s+-\s+/)[0]!.trim();
  return clause.length <= max && clause.split(' ').length >= 3 ? clause : undefined;
}

/** A headline in quotes, as a sentence of its own. */
function quote(text: string): string {
  return sentence(`“${text.trim()}”`);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const READING = /\/(docs?|documentation|guides?|learn|tutorials?|getting-started|quick-?start|manual)(\/|\.|$|#)/i;

/** The documentation sidebar of a page that is a chapter of the docs (a docs address, or a sidebar of links), if any. */
function docsSidebar(page: CapturedPage): CapturedElement | undefined {
  const sidebar = page.elements.find((e) => e.kind === 'nav' && e.detail === 'sidebar' && (e.items?.length ?? 0) >= 3);
  if (!sidebar) return undefined;
  const path = new URL(page.url).pathname;
  return READING.test(path) || /\/(reference|api|user-guide|handbook)(\/|\.|$)/i.test(path) ? sidebar : undefined;
}

/** The name a site goes by: the part of the home page's title that the other pages repeat. */
export function siteName(pages: CapturedPage[]): string {
  const parts = (pages[0]?.title ?? '').split(TITLE_PARTS).map((p) => p.trim()).filter(Boolean);
  const others = pages.slice(1).map((p) => p.title);
  const shared = parts.find((part) => others.some((title) => title.includes(part)));
  if (shared) return shared;
  // The logo: a short link back to the home page, usually first in the header.
  const home = pages[0] ? new URL('/', pages[0].url).toString() : '';
  const logo = pages[0]?.elements.find((e) => e.kind === 'link' && e.href === home && e.text.split(/\s+/).length <= 3);
  if (logo) return logo.text;
  const short = parts.find((part) => part.split(/\s+/).length <= 3);
  if (short) return short;
  return new URL(pages[0]?.url ?? 'http://site.invalid').hostname.replace(/^www\./, '');
}

/**
 * What a page is called within its site: the part of its title that is not the site's name ("Pricing" in
 * "Micro — Pricing" or "Pricing | Micro"), else the last segment of its address, else "home".
 */
export function pageName(page: CapturedPage, site?: string): string {
  const parts = page.title
    .split(TITLE_PARTS)
    .map((p) => p.trim())
    .filter(Boolean);
  const own = parts.filter((p) => !site || p.toLowerCase() !== site.toLowerCase());
  const pick = own.find((p) => p.length <= 40);
  if (pick && (own.length < parts.length || parts.length === 1)) return pick;
  const path = new URL(page.url).pathname.split('/').filter(Boolean).pop() ?? '';
  const fromPath = path.replace(/\.html?$/, '').replace(/[-_]/g, ' ');
  if (fromPath && fromPath !== 'index') return fromPath;
  return pick ?? 'home';
}

function list(items: string[]): string {
  const shown = items.slice(0, 5);
  if (shown.length === 0) return '';
  if (shown.length === 1) return shown[0]!;
  const more = items.length > shown.length ? ` and ${items.length - shown.length} more` : '';
  return more ? `${shown.join(', ')}${more}` : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

function countWord(n: number): string {
  return ['No', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten'][n] ?? String(n);
}

/** Ends a phrase with one full stop (not after ? or !), whatever the page's own punctuation. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]$/.test(trimmed) || /[.!?]”$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
