// The facts a tour is written from, read off a page's elements (headings, navigation, calls to action, forms, features, pricing) in either capture mode.
import { type Document, type Element, isTag, isText } from 'domhandler';
import { getAttributeValue, textContent } from 'domutils';
import { createSelectorFinder } from './css-path';
import { hiddenByStylesheets } from './css-visibility';
import type { CapturedElement, ElementKind, PixelBox } from './generation.types';
import { findFirst, forEachElement } from './dom-walk';

/** What a browser knows about an element and a parser does not (Chromium mode only). */
export interface ElementLayout {
  box: PixelBox;
  visible: boolean;
  /** The number the in-page probe stamped on the element, to find it again in the live page. */
  key: number;
  /** Computed font size in pixels. */
  fontSize?: number;
}

export interface PageFacts {
  title: string;
  description: string;
  elements: CapturedElement[];
  links: Array<{ href: string; text: string; inNav: boolean }>;
}

const PRICE = /(?:[$€£¥]\s?\d[\d,.]*|\d[\d,.]*\s?(?:€|£|USD|EUR|GBP)\b|\bfree\b)/i;
const BUTTON_CLASS = /\b(btn|button|cta)\b|(^|[-_\s])(btn|button|cta)([-_\s]|$)/i;
const PRIMARY_CLASS = /primary|cta|main/i;
const MAX_TEXT = 140;
const DISPLAY_CLASS =
  /(^|\s)(display-[1-6]|[\w-]*(hero|masthead|banner|jumbotron|intro|splash)[-_]{1,2}(title|heading|headline)|headline|heading-(xl|xxl|2xl|large|jumbo|hero))(\s|$)/i;
/** Text this large (px), short and on its own, is set as a headline whatever its tag (Chromium mode). */
const DISPLAY_SIZE = 34;
const LEAD_CLASS = /(^|\s)(lead|hero-lead|hero-text|tagline)(\s|$)/i;
/** A figure and little else: 10k+, 99.9%, $2M, 4.8/5, 24/7, 4.9★, #1, 50ms (a unit of at most three letters). */
const STAT = /^(?=.{1,16}$)[^\p{L}]*\d[^\p{L}]*(?:\p{L}{1,3}[^\p{L}]*)?$/u;

/**
 * Finds the elements a tour talks about, in document order: headings (with the prose after them),
 * navigation (with its links), links and buttons (primary ones marked), form fields with their labels,
 * forms (with their fields), groups of feature cards, and pricing blocks (with their plans). The same
 * code serves both capture modes: Chromium passes element boxes and visibility, HTML mode guesses
 * visibility from attributes.
 */
export function extractFacts(doc: Document, pageUrl: string, layout?: Map<Element, ElementLayout>): PageFacts {
  const selectorFor = createSelectorFinder(doc);
  const elements: CapturedElement[] = [];
  const links: PageFacts['links'] = [];
  const seen = new Set<Element>();
  const labels = labelIndex(doc);
  // Without a browser, the page's own stylesheets say what is hidden too (css-visibility.ts).
  const cssHidden = layout ? undefined : hiddenByStylesheets(doc);
  const vis: Visibility = { visible: (el) => isVisible(el, layout, cssHidden), measured: layout !== undefined };
  const pricing = findPricing(doc, vis);
  const groups = findCardGroups(doc, vis, pricing);
  const figures = findFigureGroups(doc, vis, pricing);

  /** `at` is where the hotspot goes when that is a part of the element (a nav's list of links). */
  const push = (el: Element, kind: ElementKind, text: string, extra: Partial<CapturedElement> = {}, at: Element = el) => {
    if (!text || seen.has(el)) return;
    seen.add(el);
    const known = layout?.get(at);
    elements.push({ kind, text: clip(text), selector: selectorFor(at), ...(known ? { box: known.box, probe: known.key } : {}), ...extra });
  };
  /** A smaller part of an element to point at when the whole is too large for a hotspot. */
  const focusOf = (part: Element | null): Partial<CapturedElement> => {
    if (!part) return {};
    const known = layout?.get(part);
    return { focus: { selector: selectorFor(part), ...(known ? { box: known.box } : {}) } };
  };

  const body = findFirst(doc, 'body') ?? doc;
  forEachElement(body, (el) => {
    // Without layout a hidden element hides its subtree; with it, each element's own box decides.
    if (!vis.visible(el)) return vis.measured;
    const name = el.name;
    const role = (getAttributeValue(el, 'role') ?? '').toLowerCase();
    const group = groups.get(el);
    const plans = pricing.get(el);
    const kpis = figures.get(el);
    if (name === 'footer' || role === 'contentinfo') {
      // The footer's link lists and newsletter box are not the product: only its links are kept, to follow.
      for (const a of linksIn(el, vis)) {
        const href = absoluteHttp(a.attribs.href!, pageUrl);
        if (href) links.push({ href, text: accessibleName(a), inNav: false });
      }
      return false;
    } else if (kpis) {
      push(el, 'other', headingBefore(el) ?? 'Key figures', { items: kpis, detail: 'kpis' });
      return false;
    } else if (name === 'table' && isDataTable(el)) {
      const caption = findFirst(el, 'caption');
      const title = (caption ? readable(caption) : '') || cardTitle(el) || headingBefore(el) || 'Table';
      push(el, 'other', title, { items: columnsOf(el), detail: 'table', ...focusOf(findFirst(el, 'thead') ?? findFirst(el, 'tr')) });
      return false;
    } else if ((name === 'canvas' && isChart(el, layout?.get(el)?.box)) || isChartHolder(el, vis.measured)) {
      push(el, 'other', cardTitle(el) ?? headingBefore(el) ?? 'Chart', { detail: 'chart' });
      return false;
    } else if (plans) {
      push(el, 'pricing', headingBefore(el) ?? 'Pricing', { items: plans, detail: 'plans' });
    } else if (group) {
      push(el, 'other', group.heading, { items: group.items, detail: 'features', context: group.context });
    } else if (/^h[1-3]$/.test(name) && isLogo(el, pageUrl)) {
      // A site's name in an h1 in its header is its logo, not the page's headline.
      const link = findFirstMatching(el, (a) => a.name === 'a' && !!a.attribs.href);
      const href = link ? absoluteHttp(link.attribs.href!, pageUrl) : null;
      push(el, 'link', accessibleName(el), { detail: 'logo', ...(href ? { href } : {}) });
      return false;
    } else if (/^h[1-3]$/.test(name) && !STAT.test(readable(el))) {
      const size = layout?.get(el)?.fontSize;
      push(el, 'heading', readable(el), { detail: name, context: proseAfter(el), ...(size ? { size } : {}) });
    } else if (/^h[1-3]$/.test(name) && STAT.test(readable(el))) {
      // "10k+" over "teams": a figure set as a heading names nothing; the row of figures is read as one.
      return true;
    } else if (
      (DISPLAY_CLASS.test(el.attribs.class ?? '') || LEAD_CLASS.test(el.attribs.class ?? '') || isLarge(el, layout)) &&
      isLeafText(el) &&
      !hasAncestor(el, (a) => a.name === 'a' || a.name === 'button') &&
      !isLogo(el, pageUrl) &&
      readable(el).length <= 160 &&
      !PRICE.test(readable(el)) &&
      !STAT.test(readable(el))
    ) {
      // Headlines set in a <p> or <div> with a display class (Bootstrap's display-4, "hero-title"...) or
      // at a display size, and lead paragraphs, which carry a hero that has no heading.
      const detail = LEAD_CLASS.test(el.attribs.class ?? '') && !DISPLAY_CLASS.test(el.attribs.class ?? '') && !isLarge(el, layout) ? 'lead' : 'display';
      const size = layout?.get(el)?.fontSize;
      push(el, 'heading', readable(el), { detail, context: proseAfter(el), ...(size ? { size } : {}) });
    } else if (name === 'nav' || role === 'navigation' || isMenuList(el)) {
      const shown = linksIn(el, vis).filter((a) => !isLogoLink(a, pageUrl));
      const items = unique(shown.map(readable)).slice(0, 10);
      // A sidebar's navigation (documentation, an app's menu) is told apart: it says what kind of page this is.
      const sidebar = el.name === 'aside' || hasAncestor(el, (a) => a.name === 'aside' || SIDEBAR_CLASS.test(a.attribs.class ?? '')) || SIDEBAR_CLASS.test(el.attribs.class ?? '');
      if (items.length > 0) push(el, 'nav', getAttributeValue(el, 'aria-label') ?? 'Navigation', { items, ...(sidebar ? { detail: 'sidebar' } : {}) }, linkList(el, shown));
    } else if (name === 'form') {
      const fields = formFields(el, labels, doc);
      const submit = submitText(el);
      const own = findHeading(el, /^h[1-4]$/);
      const heading = getAttributeValue(el, 'aria-label') ?? (own ? clip(readable(own)) || undefined : undefined) ?? headingBefore(el) ?? submit ?? 'Form';
      push(el, 'form', heading, { items: fields, ...(submit ? { detail: submit } : {}), context: proseAfterHeadingOf(el) });
    } else if (name === 'a' && el.attribs.href) {
      const href = absoluteHttp(el.attribs.href, pageUrl);
      const text = accessibleName(el);
      if (href) links.push({ href, text, inNav: hasAncestor(el, (a) => a.name === 'nav' || a.name === 'header') });
      // The logo leads home, a link to follow; it is neither a headline nor a call to action.
      if (isLogoLink(el, pageUrl)) return false;
      const cls = el.attribs.class ?? '';
      const looksLikeButton = role === 'button' || BUTTON_CLASS.test(cls) || isUtilityButton(cls);
      push(el, looksLikeButton ? 'button' : 'link', text, {
        ...(href ? { href } : {}),
        ...(looksLikeButton && (PRIMARY_CLASS.test(cls) || isUtilityFilled(cls)) ? { detail: 'primary' } : {}),
      });
    } else if (name === 'button' || role === 'button' || (name === 'input' && /^(submit|button)$/i.test(el.attribs.type ?? ''))) {
      const primary = PRIMARY_CLASS.test(el.attribs.class ?? '') || (el.attribs.type ?? '').toLowerCase() === 'submit';
      push(el, 'button', accessibleName(el), primary ? { detail: 'primary' } : {});
    } else if (name === 'input' || name === 'select' || name === 'textarea') {
      const type = name === 'input' ? (el.attribs.type ?? 'text').toLowerCase() : name;
      push(el, 'input', fieldLabel(el, labels), { detail: type });
    }
    return true;
  });

  const head = findFirst(doc, 'head');
  const titleEl = head ? findFirst(head, 'title') : null;
  let description = '';
  if (head) {
    forEachElement(head, (el) => {
      if (el.name === 'meta' && (el.attribs.name ?? '').toLowerCase() === 'description') description = el.attribs.content ?? '';
      return true;
    });
  }
  return { title: clean(titleEl ? textContent(titleEl) : ''), description: clean(description), elements, links };
}

const SIDEBAR_CLASS = /(^|[\s_-])(sidebar|side-?nav|docs-nav|doc-sidebar)([\s_-]|$)/i;
const MENU_CLASS = /(^|\s)(navbar-nav|nav-menu|main-menu|primary-menu|menu-primary|site-menu|nav-links|main-nav)(\s|$)/i;

/** A site's menu written without a <nav> (Tabler, many themes): a list with a menu class, not inside a nav. */
function isMenuList(el: Element): boolean {
  return (el.name === 'ul' || el.name === 'div') && MENU_CLASS.test(el.attribs.class ?? '') && !hasAncestor(el, (a) => a.name === 'nav' || (a.attribs.role ?? '') === 'navigation');
}

/**
 * A link styled as a button with utility classes (Tailwind's `px-5 py-3 rounded-lg`): padded on both
 * axes and framed by rounded corners, a border or a background.
 */
function isUtilityButton(cls: string): boolean {
  const tokens = cls.split(/\s+/).map((t) => t.replace(/^[\w-]+:/, ''));
  const padded = tokens.some((t) => /^(px|p)-/.test(t)) && tokens.some((t) => /^(py|p)-/.test(t));
  return padded && tokens.some((t) => /^(rounded|border$|bg-)/.test(t));
}

/** A utility-styled button filled with a colour and set in white: the page's main action. */
function isUtilityFilled(cls: string): boolean {
  const tokens = cls.split(/\s+/);
  return tokens.includes('text-white') && tokens.some((t) => /^bg-(?!white|transparent|gray|grey|slate|zinc|neutral|stone|black)[a-z]+(-\d+)?$/.test(t));
}

/** Set at a display size on its own (not a link or a button's text): a headline in a div. */
function isLarge(el: Element, layout?: Map<Element, ElementLayout>): boolean {
  const size = layout?.get(el)?.fontSize ?? 0;
  if (size < DISPLAY_SIZE || ['a', 'button', 'label', 'span', 'strong', 'b', 'i', 'em', 'li', 'td', 'th'].includes(el.name)) return false;
  return !hasAncestor(el, (a) => a.name === 'a' || a.name === 'button');
}

/** Classes themes give a site's logo or name: Bootstrap's navbar-brand, WordPress's site-title, "logo"... */
const LOGO_CLASS = /(^|\s)(logo|[\w-]+-logo|logo-[\w-]+|navbar-brand|site-title|site-name|site-branding|custom-logo-link)(\s|$)/i;
/** Classes that name a logo only in the top bar: elsewhere a "brand" block is a hero built around the name. */
const BRAND_CLASS = /(^|\s)(brand|brand-name|wordmark)(\s|$)/i;
/** The bar at the top of a page, written as an element or as a class. */
const BAR_CLASS = /(^|\s)(header|site-header|navbar|topbar|top-bar|top-nav|topnav|header-bar|app-bar|appbar)(\s|$)/i;

/**
 * A heading (or display text) that is the site's logo, not a page's headline: marked as a logo or brand
 * (by class, or a `rel="home"` link), or in the top bar and either only an image, a link to this site's
 * home or top, or the bar's only title beside its menu.
 */
function isLogo(el: Element, pageUrl: string): boolean {
  if (isBrandMarked(el)) return true;
  const bar = ancestor(el, isBar);
  if (!bar) return false;
  if (!readable(el)) return true;
  const link = el.name === 'a' ? el : (findFirstMatching(el, (a) => a.name === 'a' && !!a.attribs.href) ?? ancestor(el, (a) => a.name === 'a'));
  if (link?.attribs.href !== undefined && isHomeLink(link.attribs.href, pageUrl)) return true;
  return isMenuBar(bar, el);
}

/** The element, a link or image inside it, or one of its three nearest ancestors, is marked as the logo. */
function isBrandMarked(el: Element): boolean {
  const inBar = ancestor(el, isBar) !== null;
  const marked = (e: Element) => {
    const names = `${e.attribs.class ?? ''} ${e.attribs.id ?? ''}`;
    return LOGO_CLASS.test(names) || (inBar && BRAND_CLASS.test(names)) || (e.name === 'a' && /(^|\s)home(\s|$)/i.test(e.attribs.rel ?? ''));
  };
  if (marked(el) || findFirstMatching(el, (c) => (c.name === 'a' || c.name === 'img') && marked(c))) return true;
  let up = el.parent;
  for (let depth = 0; up && isTag(up) && depth < 3; depth++, up = up.parent) {
    if (['section', 'main', 'article', 'body'].includes(up.name)) return false;
    // A logo block holds the logo; one with a tagline or prose under the name is a hero.
    if (marked(up)) return !holdsMore(up, el);
  }
  return false;
}

/** Whether `block` holds a paragraph or another heading besides `el`. */
function holdsMore(block: Element, el: Element): boolean {
  return findFirstMatching(block, (c) => c !== el && (c.name === 'p' || /^h[1-6]$/.test(c.name)) && !hasAncestor(c, (a) => a === el)) !== null;
}

function isBar(a: Element): boolean {
  return a.name === 'header' || a.name === 'nav' || (a.attribs.role ?? '') === 'banner' || (a.attribs.role ?? '') === 'navigation' || BAR_CLASS.test(a.attribs.class ?? '');
}

/** A link to the site's home page, or to the top of this page (`#`, `#top`, `#page-top`). */
function isHomeLink(href: string, pageUrl: string): boolean {
  const url = absoluteHttp(href, pageUrl);
  if (!url) return false;
  const target = new URL(url);
  const page = new URL(pageUrl);
  if (target.origin !== page.origin) return false;
  if (target.pathname.replace(/index\.html?$/, '') === '/') return true;
  return target.pathname === page.pathname && /^#?(top|page-top|home)?$/i.test(target.hash);
}

/**
 * A bar holding a menu of links beside one title and no prose is a site's header: its title is the site's
 * name. A hero that holds the menu too (Bulma's) has a paragraph or another heading.
 */
function isMenuBar(bar: Element, title: Element): boolean {
  let links = 0;
  let other = false;
  forEachElement(bar, (el) => {
    if (el === title) return false;
    if (el.name === 'p' || /^h[1-6]$/.test(el.name) || el.name === 'form') other = true;
    if (el.name === 'a' && el.attribs.href) links++;
    return !other;
  });
  return !other && links >= 2;
}

/** A link that is the site's logo (Bootstrap's navbar-brand, a link marked logo, a home link holding only an image in the top bar). */
function isLogoLink(a: Element, pageUrl: string): boolean {
  if (isBrandMarked(a)) return true;
  return !readable(a) && findFirst(a, 'img') !== null && ancestor(a, isBar) !== null && isHomeLink(a.attribs.href ?? '', pageUrl);
}

/**
 * Classes that hide an element until a script opens it, in the frameworks most sites use: Bootstrap's
 * dropdowns, collapsed regions, modals and off-canvas panels (open with `show`), utility classes that hide
 * (`d-none`, Tailwind's `hidden`, screen-reader-only text), and common menu and popover names.
 */
const CLOSED_CLASS = /(^|\s)(dropdown-menu|collapse|modal|offcanvas|popover|tooltip|d-none|hidden|invisible|sr-only|visually-hidden|screen-reader-text|dropdown-content|submenu|mega-menu)(\s|$)/i;
const OPEN_CLASS = /(^|\s)(show|open|is-open|active|in)(\s|$)/i;
/** Hidden on phones only: Bootstrap's expanding navbar, `d-none d-lg-block`, Tailwind's `hidden md:flex`. */
const SHOWN_ON_DESKTOP = /(^|\s)(navbar-collapse|d-(sm|md|lg|xl)-(block|flex|inline|inline-block|inline-flex|grid|table)|(sm|md|lg|xl):(block|flex|inline|inline-block|inline-flex|grid|table))(\s|$)/i;

/** Whether a visitor sees an element, and whether that was measured (a browser) or guessed (markup). */
interface Visibility {
  visible(el: Element): boolean;
  /** Measured visibility is per element; a guess hides a hidden element's whole subtree. */
  measured: boolean;
}

function isVisible(el: Element, layout?: Map<Element, ElementLayout>, cssHidden?: Set<Element>): boolean {
  const known = layout?.get(el);
  if (known) return known.visible;
  if (el.attribs.hidden !== undefined || el.attribs['aria-hidden'] === 'true') return false;
  if (/display\s*:\s*none|visibility\s*:\s*hidden/i.test(el.attribs.style ?? '')) return false;
  if (layout) return true;
  if (cssHidden?.has(el)) return false;
  // Without a browser, guess as a visitor on a desktop screen sees the page before touching it.
  if (['template', 'noscript', 'dialog'].includes(el.name) && el.attribs.open === undefined) return false;
  // The content of a closed <details> (all but its summary).
  if (el.parent && isTag(el.parent) && el.parent.name === 'details' && el.parent.attribs.open === undefined && el.name !== 'summary') return false;
  const cls = el.attribs.class ?? '';
  // Consent banners cover the page until dismissed, and the capture dismisses them (capture-chromium.ts).
  if (el.name !== 'a' && CONSENT.test(`${el.attribs.id ?? ''} ${cls}`)) return false;
  if (hiddenOnDesktop(cls)) return false;
  return !(CLOSED_CLASS.test(cls) && !OPEN_CLASS.test(cls) && !SHOWN_ON_DESKTOP.test(cls));
}

/** Responsive breakpoints (min-width, px) of Bootstrap 4/5 and Tailwind that hold on a 1280 px screen. */
const BREAKPOINTS: Record<string, number> = { sm: 576, md: 768, lg: 992, xl: 1200 };
const TAILWIND_BREAKPOINTS: Record<string, number> = { sm: 640, md: 768, lg: 1024, xl: 1280 };

/**
 * Whether responsive display classes hide an element on a 1280 px screen: the copy of a menu or a button
 * kept for phones (`d-lg-none`, Tailwind's `lg:hidden`, Bootstrap 3's `visible-xs`, `hidden-lg`). The class
 * for the widest breakpoint that holds wins, as in the frameworks' stylesheets (`d-lg-none d-xl-block`
 * shows). The stylesheets say so too when they were inlined; the classes still tell when they were not.
 */
function hiddenOnDesktop(cls: string): boolean {
  let widest = -1;
  let hides = false;
  for (const token of cls.split(/\s+/)) {
    if (/^(visible-(xs|sm|md)(-\w+)?|hidden-lg)$/.test(token)) return true;
    const bootstrap = /^d-(sm|md|lg|xl)-(none|block|flex|inline|inline-block|inline-flex|grid|table|table-cell)$/.exec(token);
    const tailwind = /^(sm|md|lg|xl):(hidden|block|flex|inline|inline-block|inline-flex|grid|table|contents)$/.exec(token);
    const match = bootstrap ? { at: BREAKPOINTS[bootstrap[1]!]!, none: bootstrap[2] === 'none' } : tailwind ? { at: TAILWIND_BREAKPOINTS[tailwind[1]!]!, none: tailwind[2] === 'hidden' } : null;
    if (match && match.at <= 1280 && match.at > widest) {
      widest = match.at;
      hides = match.none;
    }
  }
  return hides;
}

/** Ids and classes of cookie and consent banners (and of the consent platforms' own containers). */
export const CONSENT = /(^|[\s_-])(cookies?|consent|gdpr|cookiebanner|cookie-?notice|cc-window|onetrust[\w-]*|cmp)([\s_-]|$)/i;

/**
 * Plans: cards holding one price and a call to action, two or more under a common parent. A price is the
 * innermost short text with a currency or "free" (a wrapper and the span inside it are one price), never
 * in a table (salaries, invoices) and never a card without something to click (KPI cards, statistics).
 */
function findPricing(doc: Document, vis: Visibility): Map<Element, string[]> {
  const cards = new Map<Element, Element[]>();
  forEachElement(doc, (el) => {
    if (!vis.visible(el)) return vis.measured;
    if (el.name === 'table') return false;
    if (!isPriceText(el)) return true;
    let card: Element = el;
    while (card.parent && isTag(card.parent) && countPrices(card.parent) === 1) card = card.parent;
    if (card === el || !card.parent || !isTag(card.parent) || !hasAction(card) || !priceNearTop(card, el)) return true;
    const list = cards.get(card.parent) ?? [];
    if (!list.includes(card)) list.push(card);
    cards.set(card.parent, list);
    return true;
  });
  const result = new Map<Element, string[]>();
  for (const [parent, plans] of cards) {
    if (plans.length < 2) continue;
    result.set(
      parent,
      plans.map((plan) => describePlan(plan)),
    );
  }
  return result;
}

/**
 * Short text with a price in it, counted once however it is wrapped: `<div><span>$12</span>/mo</div>` is
 * one price, "$12/mo", the outermost short text around it.
 */
function isPriceText(el: Element): boolean {
  return isPriceLeaf(el) && !(el.parent && isTag(el.parent) && isPriceLeaf(el.parent));
}

function isPriceLeaf(el: Element): boolean {
  if (!isLeafText(el)) return false;
  const text = readable(el);
  return text.length <= 40 && PRICE.test(text) && /\d/.test(text);
}

/**
 * A plan card leads with its name and price; a section that mentions a price after its prose (a service
 * described, then "From £62") is not a plan.
 */
function priceNearTop(card: Element, price: Element): boolean {
  let before = 0;
  let found = false;
  forEachElement(card, (el) => {
    if (found) return false;
    if (el === price) {
      found = true;
      return false;
    }
    if (isLeafText(el) && readable(el)) {
      before++;
      return false;
    }
    return true;
  });
  return found && before <= 4;
}

function hasAction(card: Element): boolean {
  return findFirstMatching(card, (el) => (el.name === 'a' && !!el.attribs.href) || el.name === 'button' || (el.attribs.role ?? '') === 'button') !== null;
}

function findFirstMatching(root: Element, test: (el: Element) => boolean): Element | null {
  let found: Element | null = null;
  forEachElement(root, (el) => {
    if (!found && test(el)) found = el;
    return !found;
  });
  return found;
}

function describePlan(plan: Element): string {
  let name = '';
  let firstLine = '';
  let price = '';
  let badge = '';
  forEachElement(plan, (el) => {
    const text = readable(el);
    const leaf = isLeafText(el);
    if (!name && /^h[2-5]$/.test(el.name)) name = text;
    else if (!price && isPriceText(el)) price = text;
    else if (!badge && leaf && /popular|recommended|best value/i.test(text) && text.length <= 40) badge = text;
    // Plan names in a div or a strong, not a heading: the card's first short line that is not its price,
    // its badge or its button.
    else if (!firstLine && leaf && text && text.length <= 30 && el.name !== 'a' && el.name !== 'button' && !PRICE.test(text)) firstLine = text;
    return true;
  });
  return [name || firstLine || 'Plan', price ? `at ${price}` : '', badge ? `(${badge.toLowerCase()})` : ''].filter(Boolean).join(' ');
}

function countPrices(el: Element): number {
  let count = 0;
  forEachElement(el, (child) => {
    if (child.name === 'table') return false;
    if (isPriceText(child)) count++;
    return true;
  });
  return count;
}

/**
 * Rows of figures: two to eight cards side by side, each a number ("150", "53%", "$40,000") with a short
 * label and little else, the KPI cards of a dashboard or the statistics strip of a landing page.
 * Items read "150 New Orders".
 */
function findFigureGroups(doc: Document, vis: Visibility, pricing: Map<Element, string[]>): Map<Element, string[]> {
  const groups = new Map<Element, string[]>();
  forEachElement(doc, (el) => {
    if (pricing.has(el) || el.name === 'table' || el.name === 'footer') return false;
    if (!vis.visible(el)) return vis.measured;
    const cards = el.children.filter((c): c is Element => isTag(c) && vis.visible(c));
    if (cards.length < 2 || cards.length > 8) return true;
    const items = cards.map(figureOf);
    if (items.some((item) => item === null)) return true;
    groups.set(el, items as string[]);
    return false;
  });
  return groups;
}

/** A card's figure and label ("150 New Orders"), or null when it holds more than a figure. */
function figureOf(card: Element): string | null {
  const text = readable(card);
  if (text.length > 120) return null;
  let figure = '';
  let label = '';
  forEachElement(card, (el) => {
    if (!isLeafText(el) || el.name === 'a' || el.name === 'button') return el.name !== 'a' && el.name !== 'button';
    const leaf = readable(el);
    if (!figure && leaf.length <= 16 && STAT.test(leaf)) figure = leaf;
    else if (!label && leaf.length <= 40 && /\p{L}/u.test(leaf) && !STAT.test(leaf)) label = leaf;
    // A leaf's own spans ("53<sup>%</sup>") are part of its text.
    return false;
  });
  return figure && label ? `${figure} ${label}` : null;
}

/** A table of data: a header row and rows under it (not a layout table, not a pricing grid). */
function isDataTable(table: Element): boolean {
  let rows = 0;
  let headers = 0;
  forEachElement(table, (el) => {
    if (el.name === 'tr') rows++;
    if (el.name === 'th') headers++;
    return el.name !== 'table' || el === table;
  });
  return rows >= 3 && headers >= 2;
}

function columnsOf(table: Element): string[] {
  const names: string[] = [];
  forEachElement(table, (el) => {
    if (el.name === 'th' && names.length < 8) names.push(readable(el));
    return el.name !== 'tbody';
  });
  return unique(names).slice(0, 6);
}

const CHART_CLASS = /chart|graph|plot|sparkline/i;

/**
 * A canvas big enough to be a chart (Chromium mode), or named as one or in a chart's container (either
 * mode: without a browser the canvas stays blank, but its card and title say what it shows, and a
 * dashboard is told from a marketing page by its figures and charts).
 */
function isChart(canvas: Element, box: PixelBox | undefined): boolean {
  if (box && box.width >= 160 && box.height >= 100) return true;
  const named = (e: Element) => CHART_CLASS.test(`${e.attribs.class ?? ''} ${e.attribs.id ?? ''}`);
  return named(canvas) || hasAncestor(canvas, named);
}

const CHART_NAME = /(^|[\s_-])(chart|graph|plot|sparkline)s?([\s_-]|$)/i;

/**
 * A chart a script draws into an element of its own (ApexCharts, ECharts, Highcharts): a `div` named as a
 * chart, empty in the markup (HTML mode), or holding the drawing a browser made of it (Chromium mode).
 */
function isChartHolder(el: Element, measured: boolean): boolean {
  if (el.name !== 'div' || !CHART_NAME.test(`${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`)) return false;
  if (findFirst(el, 'canvas')) return false;
  return measured ? findFirst(el, 'svg') !== null : el.children.every((c) => !isTag(c) && !readable(el));
}

/** The title of the card (dashboard panel) holding an element: its header's heading or `.card-title`. */
function cardTitle(el: Element): string | undefined {
  const card = ancestor(el, (a) => /(^|[\s_-])(card|panel|box|widget)(\s|$)/i.test(a.attribs.class ?? ''));
  if (!card) return undefined;
  const title = findFirstMatching(card, (t) => /^h[1-6]$/.test(t.name) || /(^|\s)(card-title|panel-title|box-title)(\s|$)/.test(t.attribs.class ?? ''));
  return title ? clip(readable(title), 80) || undefined : undefined;
}

/** A grid of two or more cards that each start with a sub-heading: a features section, usually. */
function findCardGroups(
  doc: Document,
  vis: Visibility,
  pricing: Map<Element, string[]>,
): Map<Element, { heading: string; items: string[]; context?: string }> {
  const groups = new Map<Element, { heading: string; items: string[]; context?: string }>();
  forEachElement(doc, (el) => {
    if (pricing.has(el)) return true;
    // A footer's columns of links, each under a heading, are not features.
    if (el.name === 'footer' || (el.attribs.role ?? '') === 'contentinfo') return false;
    if (!vis.visible(el)) return vis.measured;
    const cards = el.children.filter((c): c is Element => isTag(c) && vis.visible(c));
    if (cards.length < 2 || !alike(cards) || !cards.every(isFeatureCard)) return true;
    const titles = cards.map((card) => {
      const heading = findHeading(card, /^h[3-5]$/);
      return heading ? readable(heading) : null;
    });
    if (titles.some((t) => !t)) return true;
    // "10k+ teams", "99.9% uptime": a row of statistics names no feature.
    if ((titles as string[]).every((t) => STAT.test(t))) return true;
    // Posts, articles and events carry dates: a list of them is news, not features.
    if (cards.every(isDated)) return false;
    // A figure among named cards keeps its label ("10k+ teams"), or is left out: a bare number names nothing.
    const items = (titles as string[]).map((t, i) => (STAT.test(t) ? figureOf(cards[i]!) : t)).filter((t): t is string => !!t);
    if (items.length < 2) return true;
    const heading = headingBefore(el);
    groups.set(el, {
      heading: heading ?? 'Features',
      items,
      ...(heading ? { context: proseAfterText(el) } : {}),
    });
    return false;
  });
  return groups;
}

/**
 * Cards of one grid look alike: the same element with a class in common (`col-md-4`, `feature`). A page's
 * header and content area side by side (an admin's main) are not a grid, even when each holds a heading.
 */
function alike(cards: Element[]): boolean {
  const [first, ...rest] = cards;
  if (!first || rest.some((c) => c.name !== first.name)) return false;
  const classes = cards.map((c) => new Set((c.attribs.class ?? '').split(/\s+/).filter(Boolean)));
  if (classes.every((set) => set.size === 0)) return true;
  return [...classes[0]!].some((name) => classes.every((set) => set.has(name)));
}

/** A feature's card says one thing: a title and a few lines, no form, table, chart or page of text (a dashboard's panels). */
function isFeatureCard(card: Element): boolean {
  return readable(card).length <= 600 && findFirstMatching(card, (el) => ['form', 'table', 'canvas', 'iframe', 'ul', 'ol'].includes(el.name) && !isShortList(el)) === null;
}

/** A list of a few short lines (a card's bullet points), not a list of members or messages. */
function isShortList(el: Element): boolean {
  if (el.name !== 'ul' && el.name !== 'ol') return false;
  const items = el.children.filter((c): c is Element => isTag(c) && c.name === 'li');
  return items.length <= 6 && items.every((li) => findFirst(li, 'img') === null && readable(li).length <= 120);
}

const DATE = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}(st|nd|rd|th)?,? \d{4}\b|\b\d{1,2} (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{4}\b|\b\d{4}-\d{2}-\d{2}\b|\b\d+ min(ute)?s? read\b/i;

/** A card with a date: a `<time>` element, or a date written out ("March 3, 2026", "5 min read"). */
function isDated(card: Element): boolean {
  return findFirst(card, 'time') !== null || DATE.test(readable(card));
}

function findHeading(el: Element, level: RegExp): Element | null {
  let found: Element | null = null;
  forEachElement(el, (child) => {
    if (!found && level.test(child.name)) found = child;
    return !found;
  });
  return found;
}

function countHeadings(el: Element): number {
  let count = 0;
  forEachElement(el, (child) => {
    if (/^h[1-3]$/.test(child.name)) count++;
    return count < 2;
  });
  return count;
}

/** The nearest heading above an element: a previous sibling's, or one further up the tree. */
function headingBefore(el: Element): string | undefined {
  let current: Element | null = el;
  for (let depth = 0; current && depth < 4; depth++) {
    let sibling = current.prev;
    while (sibling) {
      // A block holding several headings is a group of cards (contact details, a previous section), not a title.
      if (isTag(sibling) && (/^h[1-3]$/.test(sibling.name) || countHeadings(sibling) === 1)) {
        const heading = /^h[1-3]$/.test(sibling.name) ? sibling : findHeading(sibling, /^h[1-3]$/);
        if (heading) return clip(readable(heading));
      }
      sibling = sibling.prev;
    }
    current = current.parent && isTag(current.parent) ? current.parent : null;
  }
  return undefined;
}

/** The paragraph right after a heading, which usually says what the heading means. */
function proseAfter(el: Element): string | undefined {
  let sibling = el.next;
  for (let hops = 0; sibling && hops < 6; hops++, sibling = sibling.next) {
    if (!isTag(sibling)) continue;
    if (/^h[1-6]$/.test(sibling.name)) return undefined;
    if (sibling.name === 'p') return clip(readable(sibling), 240) || undefined;
  }
  return undefined;
}

/** The intro paragraph of the section holding `el` (the one between its heading and it). */
function proseAfterText(el: Element): string | undefined {
  let sibling = el.prev;
  while (sibling) {
    if (isTag(sibling) && sibling.name === 'p') return clip(readable(sibling), 240);
    if (isTag(sibling) && /^h[1-6]$/.test(sibling.name)) return undefined;
    sibling = sibling.prev;
  }
  return undefined;
}

function proseAfterHeadingOf(el: Element): string | undefined {
  return proseAfterText(el);
}

function labelIndex(doc: Document): Map<string, string> {
  const byId = new Map<string, string>();
  forEachElement(doc, (el) => {
    if (el.name === 'label' && el.attribs.for) byId.set(el.attribs.for, readable(el));
    return true;
  });
  return byId;
}

function fieldLabel(el: Element, labels: Map<string, string>): string {
  const wrapping = ancestor(el, (a) => a.name === 'label');
  return (
    getAttributeValue(el, 'aria-label') ??
    (el.attribs.id ? labels.get(el.attribs.id) : undefined) ??
    (wrapping ? readable(wrapping) : undefined) ??
    el.attribs.placeholder ??
    el.attribs.title ??
    el.attribs.name ??
    ''
  );
}

/**
 * What a visitor fills in: text fields, lists and text areas by their labels, and a group of options
 * (a product's colour, a plan's billing) by its fieldset's legend. Fields outside the form that belong to
 * it through their `form` attribute count too (Shopify's product forms). Boxes to tick do not.
 */
function formFields(form: Element, labels: Map<string, string>, doc: Document): string[] {
  const fields: string[] = [];
  const visit = (el: Element) => {
    const type = (el.attribs.type ?? 'text').toLowerCase();
    if ((el.name === 'input' && !/^(submit|button|reset|image|hidden|checkbox|radio)$/.test(type)) || el.name === 'select' || el.name === 'textarea') {
      const label = clean(fieldLabel(el, labels));
      if (label) fields.push(clip(label, 60));
    } else if (el.name === 'input' && type === 'radio') {
      const fieldset = ancestor(el, (a) => a.name === 'fieldset');
      const legend = fieldset ? fieldset.children.find((c): c is Element => isTag(c) && c.name === 'legend') : undefined;
      const label = legend ? readable(legend) : '';
      if (label) fields.push(clip(label, 60));
    }
  };
  forEachElement(form, (el) => {
    visit(el);
    return true;
  });
  for (const el of ownedFields(form, doc)) visit(el);
  return unique(fields);
}

/** Controls outside a form that belong to it (`form="its-id"`). */
function ownedFields(form: Element, doc: Document): Element[] {
  const id = form.attribs.id;
  if (!id) return [];
  const owned: Element[] = [];
  forEachElement(doc, (el) => {
    if (el.attribs.form === id && !hasAncestor(el, (a) => a === form)) owned.push(el);
    return true;
  });
  return owned;
}

function submitText(form: Element): string | undefined {
  let text: string | undefined;
  forEachElement(form, (el) => {
    if (text) return false;
    const type = (el.attribs.type ?? '').toLowerCase();
    if ((el.name === 'button' && type !== 'button' && type !== 'reset') || (el.name === 'input' && type === 'submit')) {
      text = accessibleName(el) || undefined;
    }
    return true;
  });
  return text;
}

/**
 * Where a navigation's links are: the deepest element inside it holding most of its visible links (the
 * menu list, without the logo, the search box and the sign-in buttons beside it), else the whole nav.
 */
function linkList(nav: Element, all: Element[]): Element {
  const links = all.filter((a) => !/brand|logo/i.test(a.attribs.class ?? ''));
  if (links.length < 2) return nav;
  const counts = new Map<Element, number>();
  for (const link of links) {
    for (let up = link.parent; up && isTag(up) && up !== nav; up = up.parent) counts.set(up, (counts.get(up) ?? 0) + 1);
  }
  let best: Element = nav;
  let bestDepth = -1;
  for (const [candidate, count] of counts) {
    if (count < Math.max(2, Math.ceil(0.5 * links.length))) continue;
    let depth = 0;
    for (let up = candidate.parent; up && up !== nav; up = up.parent) depth++;
    if (depth > bestDepth) {
      best = candidate;
      bestDepth = depth;
    }
  }
  return best;
}

/** The links a visitor sees in `el`: those in closed dropdowns and menus are not listed. */
function linksIn(el: Element, vis: Visibility): Element[] {
  const found: Element[] = [];
  forEachElement(el, (child) => {
    if (!vis.visible(child)) return vis.measured;
    if (child.name === 'a' && child.attribs.href) found.push(child);
    return true;
  });
  return found;
}

/** What a person (or a screen reader) reads for an element. */
function accessibleName(el: Element): string {
  const aria = getAttributeValue(el, 'aria-label');
  if (aria) return clean(aria);
  if (el.name === 'input') return clean(el.attribs.value ?? el.attribs.title ?? '');
  const text = readable(el);
  if (text) return text;
  let alt = '';
  forEachElement(el, (child) => {
    if (!alt && child.name === 'img' && child.attribs.alt) alt = child.attribs.alt;
    // An icon drawn inline is named by its SVG title when nothing else names the link.
    if (!alt && child.name === 'title' && hasAncestor(child, (a) => a.name === 'svg')) alt = textContent(child);
    return !alt;
  });
  return clean(alt || el.attribs.title || '');
}

/** What a reader sees of an element's text: not the CSS of an inline SVG's `<style>`, nor scripts. */
function readable(el: Element): string {
  let text = '';
  const read = (node: Element) => {
    for (const child of node.children) {
      if (isTag(child)) {
        if (!UNREAD.has(child.name)) read(child);
      } else if (isText(child)) text += child.data;
    }
  };
  read(el);
  return clean(text);
}

// An inline SVG's <title> and <desc> name the drawing ("Figma.logo"), not the link or button around it.
const UNREAD = new Set(['style', 'script', 'noscript', 'template', 'title', 'desc']);

function isLeafText(el: Element): boolean {
  return el.children.every((c) => !isTag(c) || ['span', 'strong', 'b', 'em', 'small', 'sup', 'sub'].includes(c.name));
}

function ancestor(el: Element, test: (a: Element) => boolean): Element | null {
  let current = el.parent;
  while (current && isTag(current)) {
    if (test(current)) return current;
    current = current.parent;
  }
  return null;
}

function hasAncestor(el: Element, test: (a: Element) => boolean): boolean {
  return ancestor(el, test) !== null;
}

function absoluteHttp(href: string, base: string): string | null {
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** Whitespace runs as one space, trimmed: text as a reader sees it. */
export function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `text` cut to `max` characters, ending in an ellipsis when cut. */
export function clip(text: string, max = MAX_TEXT): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

function unique(values: string[]): string[] {
  return [...new Set(values.filter(Boolean))];
}
