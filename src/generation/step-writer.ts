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
 * page always gives the same tour.
 */
export function writeSteps(steps: PlannedStep[], pages: CapturedPage[]): StepCopy[] {
  const site = siteName(pages);
  const copies: StepCopy[] = [];
  const titles = new Set<string>();
  let featureSteps = 0;
  for (const step of steps) {
    const copy = writeOne(step, site, featureSteps);
    if (step.role === 'features') featureSteps++;
    // Two steps with one title read as a mistake: the later one names its page.
    if (titles.has(copy.title.toLowerCase())) copy.title = clip(`${copy.title} (${pageName(step.page, site)})`, 90);
    titles.add(copy.title.toLowerCase());
    copies.push(copy);
  }
  return copies;
}

function writeOne(step: PlannedStep, site: string, featureSteps: number): StepCopy {
  const el = step.element;
  const text = el.text;
  const label = clip(text, 60);
  switch (step.role) {
    case 'hero': {
      const pitch = el.context ?? step.page.description;
      return {
        title: clip(text, 90),
        description: sentence(`Start with the hero: “${text}”`) + (pitch ? ` ${sentence(pitch)}` : ''),
        label,
        tooltip: `This headline says what ${site} is for.`,
      };
    }
    case 'cta':
      return {
        title: `Click “${clip(text, 60)}”`,
        description: `${sentence(`Click “${text}” to ${purpose(text, site, el.href)}`)} It is the main call to action, right under the headline.`,
        label,
        tooltip: `Click “${clip(text, 60)}” to continue`,
      };
    case 'nav': {
      const items = el.items ?? [];
      return {
        title: 'Find your way around',
        description: sentence(`The navigation links to ${list(items)}, so every part of ${site} is one click away`),
        label: clip(/\b(navigation|menu|nav)$/i.test(text) ? text : `${text} navigation`, 60),
        tooltip: `${items.length} sections, always at the top of the page`,
      };
    }
    case 'features': {
      const items = el.items ?? [];
      const lead = featureSteps === 0 ? 'Key features at a glance' : `More on the ${pageName(step.page, site)} page`;
      return {
        title: clip(text, 90),
        description: sentence(`${lead}: ${list(items)}`) + (el.context ? ` ${sentence(el.context)}` : ''),
        label,
        tooltip: items[0] ? `Start with “${clip(items[0], 50)}”` : `What ${site} does`,
      };
    }
    case 'form': {
      const fields = el.items ?? [];
      const submit = el.detail;
      return {
        title: clip(text, 90),
        description:
          sentence(`${/add to (cart|bag|basket)|buy|order/i.test(submit ?? '') ? 'Choose' : 'Fill in'} ${list(fields.map((f) => `“${f}”`))}${submit ? `, then press “${submit}”` : ''}`) +
          (el.context ? ` ${sentence(el.context)}` : ''),
        label,
        tooltip: submit ? `Fill in the form and press “${clip(submit, 40)}”` : 'Fill in the form',
      };
    }
    case 'pricing': {
      const plans = el.items ?? [];
      return {
        title: clip(text === 'Pricing' ? 'Compare the plans' : text, 90),
        description: sentence(`${countWord(plans.length)} plans to choose from: ${list(plans)}`) + (step.page.description ? ` ${sentence(step.page.description)}` : ''),
        label,
        tooltip: 'Compare the plans side by side',
      };
    }
    case 'page': {
      const about = el.context ?? step.page.description;
      const cards = el.items?.length ? ` ${sentence(`It covers ${list(el.items)}`)}` : '';
      const docs = docsSidebar(step.page);
      if (docs) {
        // A documentation page reads as a chapter of the docs, with where the sidebar leads next.
        const next = (docs.items ?? []).filter((item) => item.toLowerCase() !== text.toLowerCase());
        return {
          title: clip(text, 90),
          description:
            sentence(`In the documentation: “${text}”`) + (about ? ` ${sentence(about)}` : '') + (next.length ? ` ${sentence(`The sidebar leads on to ${list(next)}`)}` : ''),
          label,
          tooltip: `Read “${clip(text, 60)}”`,
        };
      }
      return {
        title: clip(text, 90),
        description: sentence(`On the ${pageName(step.page, site)} page: “${text}”`) + (about ? ` ${sentence(about)}` : '') + cards,
        label,
        tooltip: clip(text, 80),
      };
    }
    case 'kpis': {
      const items = el.items ?? [];
      return {
        title: clip(text === 'Key figures' ? 'Key figures at a glance' : text, 90),
        description: sentence(`The ${pageName(step.page, site)} page opens on ${countWord(items.length).toLowerCase()} key figures: ${list(items)}`),
        label,
        tooltip: items[0] ? `Start with “${clip(items[0], 50)}”` : 'The figures that matter most',
      };
    }
    case 'chart':
      return {
        title: clip(text === 'Chart' ? 'Read the chart' : text, 90),
        description: sentence(`The “${text}” chart on the ${pageName(step.page, site)} page shows the trend behind the numbers`),
        label,
        tooltip: `The “${clip(text, 50)}” chart`,
      };
    case 'table': {
      const columns = el.items ?? [];
      return {
        title: clip(text === 'Table' ? 'Browse the records' : text, 90),
        description: sentence(`The “${text}” table lists each entry${columns.length ? ` with its ${list(columns.map((c) => c.toLowerCase()))}` : ''}`),
        label,
        tooltip: columns.length ? `${columns.length} columns, one row per entry` : `The “${clip(text, 50)}” table`,
      };
    }
    case 'section':
      return {
        title: clip(text, 90),
        description: el.context ? sentence(el.context) : sentence(`Next: ${text}`),
        label,
        tooltip: clip(text, 80),
      };
  }
}

const READING = /\/(docs?|documentation|guides?|learn|tutorials?|getting-started|quick-?start|manual)(\/|\.|$|#)/i;

/** The documentation sidebar of a page that is a chapter of the docs (a docs address, or a sidebar of links), if any. */
function docsSidebar(page: CapturedPage): CapturedElement | undefined {
  const sidebar = page.elements.find((e) => e.kind === 'nav' && e.detail === 'sidebar' && (e.items?.length ?? 0) >= 3);
  if (!sidebar) return undefined;
  const path = new URL(page.url).pathname;
  return READING.test(path) || /\/(reference|api|user-guide|handbook)(\/|\.|$)/i.test(path) ? sidebar : undefined;
}

/** A guess at what a call to action leads to, from where it goes and then from its own words. */
function purpose(action: string, site: string, href?: string): string {
  // "Get started" into the documentation is reading, not signing up.
  if (href && READING.test(new URL(href, 'http://site.invalid').pathname)) return `read how to get started with ${site}`;
  if (/trial|start|get started|sign ?up|join|create|register|try/i.test(action)) return `create an account and try ${site} yourself`;
  if (/demo|book|call|meeting|schedule/i.test(action)) return 'book a walkthrough with the team';
  if (/contact|sales|talk/i.test(action)) return 'get in touch with the team';
  if (/download|install/i.test(action)) return `download ${site}`;
  if (/access|waitlist|wait list|beta|early/i.test(action)) return `get early access to ${site}`;
  if (/buy|order|subscribe|purchase/i.test(action)) return 'choose a plan and get going';
  return 'take the next step';
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
  return ['No', 'One', 'Two', 'Three', 'Four', 'Five', 'Six'][n] ?? String(n);
}

/** Ends a phrase with one full stop (not after ? or !), whatever the page's own punctuation. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]$/.test(trimmed) || /[.!?]”$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
