/**
 * The text rubric: what a product marketer checks before sending a generated tour, applied to every step.
 * The automatic checks are below; what only a reader can judge (one idea per step, a voice worth keeping)
 * is the checklist the eval's table leaves to the reviewer.
 */
import type { Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import type { GenerationResult } from '../src/generation';
import { type Expected, pagePath } from './corpus';
import { normalise, type SiteScore } from './score';

/** The automatic checks, in the order the table shows them. */
export const RUBRIC_CHECKS = {
  fragments: 'no dangling fragment or punctuation (a unit read as a name, a trailing ":", doubled punctuation, a clipped quote)',
  names: 'every name the target holds is kept (plans, features, products)',
  people: 'no list of people, no placeholder items ("Accordion Item #1", "Lorem ipsum")',
  claims: 'every word is the page’s own or the tour’s neutral vocabulary: no claim the page does not make',
  adds: 'the tooltip and the body add to the title instead of repeating it',
  distinct: 'no sentence said again in a later step of the tour',
  title: 'title at most 60 characters',
  jargon: 'no builder words (“hero”, “CTA”, “section”) the page does not use itself',
  focus: 'one idea: a body of at most 3 sentences and 320 characters',
} as const;

export type RubricCheck = keyof typeof RUBRIC_CHECKS;

/** What only a reader can judge; the table prints it for the reviewer to tick. */
export const RUBRIC_CHECKLIST = ['one idea per step', 'a marketer would send it as is'];

export interface StepRubric {
  index: number;
  failures: Array<{ check: RubricCheck; detail: string }>;
}

export interface SiteRubric {
  steps: StepRubric[];
  /** Steps that pass every automatic check. */
  clean: number;
  /** Steps failing each check. */
  failing: Record<RubricCheck, number>;
}

/**
 * The tour's own words, which say nothing about the product: connectives, the player's verbs (click, fill
 * in, press), what a page is made of (page, menu, links, form, plans, questions), numbers. Anything else
 * a step says must be on its page.
 */
const NEUTRAL = new Set(
  (
    'a an the and or but of to in on at for with from by as is are be it its this that these those each every all any both ' +
    'one two three four five six seven eight nine ten no not more most than up about also so then next here there ' +
    'what where which who how you your we our they their them his her first last start starting click press fill choose ' +
    'open opens read leads lead go goes back around way find page pages link links menu navigation sidebar documentation ' +
    'chapter plan plans price prices priced compare form field fields table column columns row rows entry entries chart figure ' +
    'figures question questions answer answers answered people person role roles button buttons main list lists show shows ' +
    'trend behind number numbers record records browse request requested on-request marked side away top below above under ' +
    'over after before beside next step steps tour part parts other others per there own introduces meet with its while ' +
    'thing visitor visitors reads key glance further down team details overview screen choice choices'
  ).split(' '),
);

/** Small words that say nothing by themselves: a tooltip of only these (and the title's words) repeats the title. */
const STOP = new Set(
  'a an the and or but of to in on at for with from by as is are be it its this that these those each your you here there then what which who how so up'.split(
    ' ',
  ),
);

const JARGON = /\b(hero|cta|call to action|sections?|above the fold|landing page|widget|component|headline|blurb)\b/gi;
const PLACEHOLDER = /accordion item #?\d|collapsible group item|lorem ipsum|dolor sit amet|\bitem #?\d+\b|\bcard title\b|\bplaceholder\b|your (name|title|text) here/i;
const UNIT_APART = /(^|[\s,:(])\/\s?(mo|month|yr|year|user|seat|agent|editor|week|day)\b/i;

/** The words of the `<title>`s of a site's captured pages. */
export function titleWords(sources: string[]): Set<string> {
  const found = new Set<string>();
  for (const source of sources) {
    const title = source.match(/<title[^>]*>([^<]*)<\/title>/i)?.[1] ?? '';
    for (const w of words(title)) found.add(w);
  }
  return found;
}

/**
 * The words of a page as a visitor (or a screen reader) meets them: its text, title and description,
 * and the alt, aria-label, placeholder, title and value of its elements.
 */
export function pageWords(source: string): { text: string; words: Set<string> } {
  const doc = parseDocument(source);
  // Each text on its own: "<h3>Fast</h3><p>Builds</p>" is "Fast Builds", not "FastBuilds".
  const parts: string[] = [];
  const visit = (nodes: Element['children']) => {
    for (const node of nodes) {
      if (node.type === 'text') parts.push(node.data);
      if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') continue;
      const el = node as Element;
      for (const name of ['alt', 'aria-label', 'placeholder', 'title', 'value', 'content']) if (el.attribs[name]) parts.push(el.attribs[name]!);
      visit(el.children);
    }
  };
  visit(doc.children);
  const text = normalise(parts.join(' '));
  return { text, words: new Set(words(text).flatMap((w) => [w, stem(w)])) };
}

function words(text: string): string[] {
  return normalise(text).match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
}

/** A word without its plural or tense ending, so "plan" is found in "plans" and "answered" in "answers". */
function stem(word: string): string {
  const w = word.replace(/['’]s$/, '').replace(/['’]$/, '');
  for (const end of ['ing', 'ies', 'ed', 'es', 's']) {
    if (!w.endsWith(end) || w.length - end.length < 3) continue;
    // "this", "press", "status": an s that ends the word itself.
    if (end === 's' && /[siu]s$/.test(w)) continue;
    return end === 'ies' ? `${w.slice(0, -3)}y` : w.slice(0, -end.length);
  }
  return w;
}

function contentWords(text: string): Set<string> {
  return new Set(words(text).filter((w) => !STOP.has(w)).map(stem));
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?…][”"’)]?)\s+(?=[\p{Lu}\p{N}“"‘(])/u)
    .map((s) => normalise(s).replace(/[.!?…”"]+$/, ''))
    .filter((s) => s.split(' ').length >= 3);
}

function similar(a: string, b: string): boolean {
  if (a === b) return true;
  const wa = new Set(a.split(' '));
  const wb = new Set(b.split(' '));
  if (wa.size < 5 || wb.size < 5) return false;
  const shared = [...wa].filter((w) => wb.has(w)).length;
  return shared / new Set([...wa, ...wb]).size >= 0.75;
}

/**
 * Applies the automatic checks to every step of a tour. `pages` gives the words of each page (by
 * path, as `pagePath` writes it), `titles` those of the captured pages' titles (a step may name the page
 * a button opens); `score` says which target each step landed on (for the names it must keep).
 */
export function rubricSite(
  result: GenerationResult,
  expected: Expected,
  score: SiteScore,
  pages: Map<string, ReturnType<typeof pageWords>>,
  titles: Set<string> = new Set(),
): SiteRubric {
  const said: string[] = [];
  const seenTitles = new Set<string>();
  const steps: StepRubric[] = result.steps.map((step, index) => {
    const failures: StepRubric['failures'] = [];
    const fail = (check: RubricCheck, detail: string) => failures.push({ check, detail });
    const hotspot = step.hotspots[0];
    const fields = { title: step.title, description: step.description, label: hotspot?.label ?? '', tooltip: hotspot?.tooltip ?? '' };
    const all = Object.values(fields).join(' \n ');
    const page = pages.get(pagePath(step.pageUrl)) ?? { text: '', words: new Set<string>() };

    for (const [name, text] of Object.entries(fields)) {
      const problem = fragment(text, page.text);
      if (problem) fail('fragments', `${name}: ${problem}`);
    }

    const target = score.steps[index]?.target;
    const lost = (target?.keep ?? []).filter((name) => !normalise(all).includes(normalise(name)));
    if (lost.length > 0) fail('names', `leaves out ${lost.map((n) => `“${n}”`).join(', ')}`);

    const named = (expected.never ?? []).filter((never) => normalise(all).includes(normalise(never)));
    const placeholder = all.match(PLACEHOLDER)?.[0];
    if (named.length > 0 || placeholder) fail('people', `says ${[...named, ...(placeholder && !named.length ? [placeholder] : [])].map((n) => `“${n}”`).join(', ')}`);

    const supported = (w: string) => NEUTRAL.has(w) || NEUTRAL.has(stem(w)) || page.words.has(w) || page.words.has(stem(w)) || titles.has(w);
    const unsupported = [...new Set(words(all))].filter((w) => !supported(w) && !/^\d/.test(w) && w.length > 1);
    const numbers = [...new Set(words(all).filter((w) => /^\d/.test(w)))].filter((n) => !page.text.includes(n));
    if (unsupported.length + numbers.length > 0) fail('claims', `not on the page: ${[...unsupported, ...numbers].join(', ')}`);

    const title = contentWords(fields.title);
    const adds = (text: string) => [...contentWords(text)].some((w) => !title.has(w));
    if (!adds(fields.tooltip)) fail('adds', `tooltip “${fields.tooltip}” repeats the title`);
    if (!adds(fields.description)) fail('adds', `body “${fields.description}” repeats the title`);

    const own = sentences(fields.description);
    const again = own.find((s) => said.some((earlier) => similar(s, earlier)));
    if (again) fail('distinct', `“${again}” was said in an earlier step`);
    said.push(...own);
    if (seenTitles.has(normalise(fields.title))) fail('distinct', 'same title as an earlier step');
    seenTitles.add(normalise(fields.title));

    if (fields.title.length > 60) fail('title', `${fields.title.length} characters`);

    const jargon = [...new Set((all.match(JARGON) ?? []).map((j) => j.toLowerCase()))].filter((j) => !page.text.includes(j));
    if (jargon.length > 0) fail('jargon', jargon.map((j) => `“${j}”`).join(', '));

    const count = (fields.description.match(/[.!?](\s|$)/g) ?? []).length;
    if (count > 3 || fields.description.length > 320) fail('focus', `${count} sentences, ${fields.description.length} characters`);
    return { index, failures };
  });
  const failing = Object.fromEntries(
    (Object.keys(RUBRIC_CHECKS) as RubricCheck[]).map((check) => [check, steps.filter((s) => s.failures.some((f) => f.check === check)).length]),
  ) as Record<RubricCheck, number>;
  return { steps, clean: steps.filter((s) => s.failures.length === 0).length, failing };
}

/** What is left dangling in one field of a step, or null. */
function fragment(text: string, pageText: string): string | null {
  if (!text.trim()) return 'empty';
  if (UNIT_APART.test(text)) return `a price unit apart from its price (“${text.match(UNIT_APART)![0].trim()}”)`;
  if (/:\s*$/.test(text) || /:\s*[.,;]/.test(text)) return 'a “:” with nothing after it';
  const doubled = text.match(/[,;:!?]\s*[.,;:]|\.\s*[,;:]|(?<!\.)\.\.(?!\.)|\s[,.;:!?](?!\d)/);
  if (doubled) return `doubled or loose punctuation (“${doubled[0]}”)`;
  // After a full stop, not after a quoted question in a list (“What would you like help with?” and …).
  const lower = text.match(/[.!?]\s+(\p{Ll}\S*)/u);
  if (lower) return `a sentence that starts “${lower[1]}”: a piece of another sentence`;
  if (/“\s*”|""/.test(text)) return 'empty quotes';
  for (const cut of text.matchAll(/(\S{1,12})…/g)) {
    const before = normalise(cut[1]!);
    if (!pageText.includes(`${before}…`) && !pageText.includes(`${before}...`)) return `clipped mid-text (“${cut[0]}”)`;
  }
  return null;
}
