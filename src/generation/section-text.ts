// A second reading of a page's sections, after its facts are found: plans as a marketer names them, a team told from features, questions gathered, placeholders dropped.
import * as CSSselect from 'css-select';
import { type Document, type Element, isTag } from 'domhandler';
import { textContent } from 'domutils';
import { createSelectorFinder } from './css-path';
import { forEachElement } from './dom-walk';
import type { CapturedElement } from './generation.types';
import type { ElementLayout, PageFacts } from './html-elements';

/** Text a template ships with and a site forgot to replace: never a feature, a question or a name. */
export const PLACEHOLDER = /accordion item #?\d|collapsible group item|lorem ipsum|dolor sit amet|^item #?\d+$|^card title$|^placeholder$|your (name|title|text) here|^(feature|service|title|heading) (one|two|three|\d)$/i;

const PRICE = /[$€£¥]\s?\d|\d[\d,.]*\s?(?:€|£|USD|EUR|GBP)\b/i;
const BADGE = /\b(most popular|popular|recommended|best value|best deal|most chosen)\b/i;
/** Words of a price that say it is not shown: "Custom", "Let's talk", "Contact us". */
const UNPRICED = /^(custom|contact( us| sales)?|let['’]s talk|talk to (us|sales)|get a quote|on request|call us)$/i;
const ROLE =
  /\b(founder|co-?founder|ceo|cto|coo|cfo|cmo|cpo|chief|head|lead|director|manager|engineer|designer|developer|officer|president|partner|vp|advisor|physio\w*|therapist|accountant|cpa|marketing|sales|support|editor|writer|owner|consultant|specialist|coordinator|analyst|architect|scientist|researcher|nurse|doctor|intern|principal|associate|recruiter|operations|success|instructor|coach|chef|masseu\w+)\b/i;
const TEAM_HEADING = /\b(team|people|leadership|founders|staff|who we are|meet (us|our|the)|our experts|clinicians)\b/i;
/** A person's name: two to four capitalised words, no digits. */
const PERSON = /^(dr\.?\s)?\p{Lu}[\p{L}'’.-]+(\s\p{Lu}[\p{L}'’.-]*){1,3}$/u;
const INLINE = new Set(['span', 'strong', 'b', 'em', 'i', 'small', 'sup', 'sub', 'svg', 'img', 'abbr', 'mark', 'code', 'br', 'del', 's', 'u', 'bdi', 'time', 'data']);

/**
 * Reads again what extractFacts grouped, with the page at hand: each pricing block's plans as
 * "Starter at $29/mo (most popular)" (the name kept whatever holds it, the unit never taken for a name,
 * a plan without a price "on request"); a grid of people with their roles is a team, not features; a
 * list of questions (cards, `<details>`, accordions, disclosure lists) is a FAQ; placeholder items are
 * dropped, and a group of nothing but placeholders goes with its headings and buttons.
 */
export function readSections(doc: Document, facts: PageFacts, layout?: Map<Element, ElementLayout>): PageFacts {
  const selectorFor = createSelectorFinder(doc);
  const order = new Map<Element, number>();
  forEachElement(doc, (el) => {
    order.set(el, order.size);
    return true;
  });
  const nodeOf = (fact: CapturedElement) => CSSselect.selectOne(fact.selector, doc) as Element | null;

  // Question lists the facts do not hold as a group: accordions, <details> runs, disclosure lists.
  const questionGroups = findQuestionGroups(doc, layout);
  const inside = (node: Element | null, group: Element) => {
    for (let up: Element | null = node; up; up = up.parent && isTag(up.parent) ? up.parent : null) if (up === group) return true;
    return false;
  };

  const kept: Array<{ fact: CapturedElement; at: number }> = [];
  for (const fact of facts.elements) {
    const node = nodeOf(fact);
    if (node && questionGroups.some((g) => inside(node, g.node))) continue;
    if (fact.kind === 'heading' && PLACEHOLDER.test(fact.text)) continue;
    let read: CapturedElement | null = fact;
    if (node && fact.kind === 'pricing') read = { ...fact, items: readPlans(node) };
    else if (node && fact.detail === 'features') read = readGroup(fact, node);
    if (read) kept.push({ fact: read, at: node ? (order.get(node) ?? 0) : 0 });
  }
  for (const group of questionGroups) {
    if (group.items.length < 2) continue;
    const known = layout?.get(group.node);
    const heading = ownHeading(group.node) ?? headingBefore(group.node) ?? 'Frequently asked questions';
    kept.push({
      fact: { kind: 'other', text: heading, selector: selectorFor(group.node), detail: 'faq', items: group.items, ...(known ? { box: known.box, probe: known.key } : {}) },
      at: order.get(group.node) ?? 0,
    });
  }
  // Facts without a node (none, in practice) keep their place: a stable sort by document order.
  return { ...facts, elements: kept.sort((a, b) => a.at - b.at).map((k) => k.fact) };
}

/** A group of cards read again: a team, a FAQ, or features without their placeholders (null: nothing left). */
function readGroup(fact: CapturedElement, node: Element): CapturedElement | null {
  const items = (fact.items ?? []).filter((item) => !PLACEHOLDER.test(item));
  if (items.length === 0) return null;
  const cards = node.children.filter((c): c is Element => isTag(c));
  if (isTeam(fact.text, cards, items)) return { ...fact, items, detail: 'team' };
  if (items.filter((i) => i.trim().endsWith('?')).length >= Math.max(2, Math.ceil((2 * items.length) / 3))) return { ...fact, items, detail: 'faq' };
  return { ...fact, items };
}

/** People with their roles: names for titles, and a role under most of them (or a heading that says team). */
function isTeam(heading: string, cards: Element[], names: string[]): boolean {
  if (names.length < 2) return false;
  const personal = names.filter((n) => n.length <= 40 && PERSON.test(n)).length;
  if (personal < Math.ceil(0.75 * names.length)) return false;
  const withRole = cards.filter((card) => lines(card).some((line) => line.length <= 60 && ROLE.test(line) && !names.includes(line))).length;
  return withRole >= Math.ceil(cards.length / 2) || TEAM_HEADING.test(heading);
}

/**
 * The plans of a pricing block, in page order: each card (a child of the block with something to
 * click) as "Name at $29/mo", with "(most popular)" when it carries that badge, or "Name on request".
 */
export function readPlans(block: Element): string[] {
  const plans: string[] = [];
  for (const card of block.children.filter((c): c is Element => isTag(c))) {
    if (!hasAction(card)) continue;
    const plan = readPlan(card);
    if (plan) plans.push(plan);
  }
  return plans;
}

function readPlan(card: Element): string | null {
  const all = lines(card, true);
  // The badge is the phrase, wherever it sits: alone in a span, or inside the plan's heading ("Growth Most popular").
  const badge = all.find((l) => BADGE.test(l) && l.length <= 40)?.match(BADGE)?.[0];
  const priceLine = all.find((l) => PRICE.test(l) && /\d/.test(l) && l.length <= 40);
  const heading = headingText(card);
  const nameOf = (text: string) => clean(text.replace(new RegExp(BADGE.source, 'gi'), '')).replace(/^[\s·•|–-]+|[\s·•|–-]+$/g, '');
  const name =
    (heading && nameOf(heading)) ||
    all.map(nameOf).find((l) => l && l !== priceLine && l.length <= 30 && /\p{L}/u.test(l) && !isUnit(l) && !PRICE.test(l) && !UNPRICED.test(l));
  if (!name || PLACEHOLDER.test(name)) return null;
  const tag = badge ? ` (${badge.toLowerCase().replace(/^popular$/, 'most popular')})` : '';
  if (priceLine) return `${name} at ${tidyPrice(priceLine)}${tag}`;
  return `${name} on request${tag}`;
}

/** "$ 29 / mo." as "$29/mo", "$0 /month per editor" as "$0/month per editor". */
export function tidyPrice(text: string): string {
  return clean(text)
    .replace(/([$€£¥])\s+(?=\d)/g, '$1')
    .replace(/\s*\/\s*/g, '/')
    .replace(/\/(mo|yr|wk)\.(?=\s|$)/gi, '/$1')
    .replace(/[.,;:]$/, '');
}

function isUnit(line: string): boolean {
  return /^[/·-]|^(per|\/)\s*\p{L}+\.?$|^(mo|month|monthly|yr|year|yearly|annually|billed\b.*)\.?$/iu.test(line.trim());
}

function headingText(card: Element): string | null {
  let found: string | null = null;
  forEachElement(card, (el) => {
    if (!found && /^h[2-6]$/.test(el.name)) found = clean(textContent(el)) || null;
    return !found;
  });
  return found;
}

/**
 * The lines of text of a block, in order: each innermost element holding only text and inline tags,
 * read whole ("<div><i></i> Growth</div>" is "Growth", "<div><span>$</span><span>29</span></div>" is
 * "$29"). Links and buttons are not lines; with `skipLists`, neither are a plan's list of features.
 */
function lines(root: Element, skipLists = false): string[] {
  const found: string[] = [];
  forEachElement(root, (el) => {
    if (el === root) return true;
    if (el.name === 'a' || el.name === 'button' || el.name === 'script' || el.name === 'style') return false;
    if (skipLists && (el.name === 'ul' || el.name === 'ol')) return false;
    if (el.children.every((c) => !isTag(c) || INLINE.has(c.name))) {
      const text = clean(textContent(el));
      if (text) found.push(text);
      return false;
    }
    return true;
  });
  return found;
}

function hasAction(card: Element): boolean {
  let found = false;
  forEachElement(card, (el) => {
    if ((el.name === 'a' && el.attribs.href) || el.name === 'button' || (el.attribs.role ?? '') === 'button') found = true;
    return !found;
  });
  return found;
}

interface QuestionGroup {
  node: Element;
  items: string[];
}

/**
 * Lists of questions with answers that open on a click: a run of `<details>` (each with its summary),
 * an accordion (`.accordion` with `.accordion-item`s, Bootstrap's and its imitators'), a disclosure list
 * (`<dl>` whose terms are buttons). Items are the questions, placeholders left out.
 */
function findQuestionGroups(doc: Document, layout?: Map<Element, ElementLayout>): QuestionGroup[] {
  const groups: QuestionGroup[] = [];
  const visible = (el: Element) => {
    const known = layout?.get(el);
    if (known) return known.visible;
    return el.attribs.hidden === undefined && !/display\s*:\s*none/i.test(el.attribs.style ?? '') && el.attribs['aria-hidden'] !== 'true';
  };
  forEachElement(doc, (el) => {
    if (!visible(el)) return layout !== undefined;
    if (el.name === 'footer' || el.name === 'nav') return false;
    const children = el.children.filter((c): c is Element => isTag(c));
    const entries = children.map(questionOf).filter((q): q is string => q !== null);
    if (entries.length >= 2 && entries.length >= children.filter((c) => !/^h[1-6]$|^p$/.test(c.name)).length * 0.75) {
      groups.push({ node: el, items: entries.filter((q) => !PLACEHOLDER.test(q)) });
      return false;
    }
    return true;
  });
  // A group of nothing but placeholders is kept (empty), so that its headings and buttons are dropped too.
  return groups;
}

/** The question a block asks: a `<details>`' summary, an accordion item's button, a disclosure's term. */
function questionOf(block: Element): string | null {
  const cls = block.attribs.class ?? '';
  let part: Element | null = null;
  if (block.name === 'details') part = block.children.find((c): c is Element => isTag(c) && c.name === 'summary') ?? null;
  else if (/(^|\s)(accordion-item|accordion__item|faq-item|card)(\s|$)/.test(cls) || block.name === 'div') part = firstMatching(block, (e) => e.name === 'button' || /accordion-(button|header)/.test(e.attribs.class ?? '') || e.name === 'dt');
  if (!part) return null;
  if (block.name === 'div' && !/accordion/.test(cls) && part.name !== 'dt' && !/accordion/.test(part.attribs.class ?? '')) return null;
  if (part.name === 'dt' && !firstMatching(part, (e) => e.name === 'button') && !clean(textContent(part)).endsWith('?')) return null;
  const text = clean(textContent(part));
  return text && text.length <= 160 ? text : null;
}

function firstMatching(root: Element, test: (el: Element) => boolean): Element | null {
  let found: Element | null = null;
  forEachElement(root, (el) => {
    if (!found && el !== root && test(el)) found = el;
    return !found;
  });
  return found;
}

/** A heading among the group's own children, before its first question (a section holding both). */
function ownHeading(group: Element): string | undefined {
  for (const child of group.children) {
    if (!isTag(child)) continue;
    if (/^h[1-3]$/.test(child.name)) return clean(textContent(child)) || undefined;
    if (questionOf(child)) return undefined;
  }
  return undefined;
}

/** The nearest h1–h3 above an element: a previous sibling's, or one further up the tree. */
function headingBefore(el: Element): string | undefined {
  let current: Element | null = el;
  for (let depth = 0; current && depth < 4; depth++) {
    for (let sibling = current.prev; sibling; sibling = sibling.prev) {
      if (!isTag(sibling)) continue;
      const heading = /^h[1-3]$/.test(sibling.name) ? sibling : firstMatching(sibling, (e) => /^h[1-3]$/.test(e.name));
      if (heading) return clean(textContent(heading)) || undefined;
    }
    current = current.parent && isTag(current.parent) ? current.parent : null;
  }
  return undefined;
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
