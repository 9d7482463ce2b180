/**
 * The CSS half of a DOM snapshot: turns the rules a page had (read from the CSSOM, or fetched when the
 * stylesheet is cross-origin) into plain text that renders with no network and no access to the page's
 * origin. Every `url(...)` is made absolute against its own stylesheet and registered, so the caller can
 * swap it for a data: URL once fetched. Rules of same-origin iframes and open shadow roots, which the
 * snapshot flattens into the main document, are confined to their part of it with `@scope`.
 */

export type ResourceKind = 'css' | 'image' | 'font';

/** Where a stylesheet's rules apply once the snapshot is one flat document. */
export type CssScope =
  | { kind: 'document' }
  /** A flattened iframe: `<div data-ds-frame=id>` › `[data-ds-frame-html]` › `[data-ds-frame-body]`. */
  | { kind: 'frame'; id: string }
  /** A flattened open shadow root: its host carries `data-ds-shadow=id`. */
  | { kind: 'shadow'; id: string };

/** A stylesheet as captured when the page was frozen. */
export interface CapturedSheet {
  /**
   * The rules as they were at freeze time; null when the CSSOM refused them (cross-origin), or when they
   * are to be read from `live` when serialising.
   */
  rules: CSSRule[] | null;
  /** A stylesheet whose rules are read when serialising rather than when freezing (see captureSheet). */
  live?: CSSStyleSheet | null;
  /** The stylesheet's own address (null for `<style>` and constructed sheets). */
  href: string | null;
  /** What its relative URLs resolve against: its address, else the document's base URL. */
  baseUrl: string;
  /** The media list it applied under ('' for all). */
  media: string;
}

/** A url() reference the caller may replace with data, and what it is for. */
export interface CssResource {
  url: string;
  kind: 'image' | 'font';
  /** Fonts the page had actually loaded are fetched before anything else. */
  priority: number;
}

/** A stylesheet fetched as text (cross-origin, or imported from one), parsed once. */
export interface FetchedSheet {
  /** The address finally fetched: what its relative URLs resolve against. */
  url: string;
  rules: CSSRule[];
  /** Its leading `@import`s, which a constructed stylesheet drops. */
  imports: { url: string; conditions: string }[];
}

/** Stylesheets fetched so far, by address; null when fetching failed. */
export type SheetCache = Map<string, FetchedSheet | null>;

export interface CssContext {
  scope: CssScope;
  sheets: SheetCache;
  /** Registers a url() found in the CSS. */
  addResource: (resource: CssResource) => void;
  /** Font faces the page had loaded, as keys from fontFaceKey. */
  loadedFonts: ReadonlySet<string>;
  maxImportDepth: number;
  /**
   * Whether a style rule's selector matches something in the snapshot; images of rules that match
   * nothing (other pages' and other states' backgrounds) are left as URLs instead of being fetched.
   * Absent: every rule counts as used.
   */
  isUsed?: (selectorText: string) => boolean;
  /** Whether a media query matches in the recorded window; images of rules under one that does not stay URLs. */
  matchesMedia?: (query: string) => boolean;
}

/** How a url() found while writing CSS is registered: as a font or image to inline, or not at all. */
type Registration = { kind: 'image' | 'font'; priority: number; firstOnly?: boolean } | null;

/** Rules that may only stand at the top level (or in conditional rules), never inside `@scope`. */
const GLOBAL_RULES = new Set([
  'CSSFontFaceRule',
  'CSSKeyframesRule',
  'CSSPropertyRule',
  'CSSCounterStyleRule',
  'CSSFontFeatureValuesRule',
  'CSSFontPaletteValuesRule',
  'CSSPageRule',
  'CSSNamespaceRule',
  'CSSLayerStatementRule',
  'CSSViewTransitionRule',
]);

interface SplitCss {
  /** @font-face, @keyframes and the like: valid only outside @scope. */
  global: string;
  /** Style rules and the conditional rules around them. */
  scoped: string;
}

/**
 * Fetches, through `fetchCss`, every stylesheet the captured ones need but cannot be read from the CSSOM:
 * cross-origin sheets and `@import`s of them, recursively up to the depth limit. The text is parsed by the
 * browser (a constructed stylesheet), so it goes through the same rule-by-rule path as a readable sheet.
 * Separate from writing the CSS so that writing can be synchronous (see Frozen.fallbackHtml).
 */
export async function prefetchStylesheets(
  sheets: readonly CapturedSheet[],
  cache: SheetCache,
  fetchCss: (url: string) => Promise<{ url: string; text: string } | null>,
  maxImportDepth: number,
): Promise<void> {
  const visit = async (url: string, depth: number): Promise<void> => {
    if (depth > maxImportDepth || cache.has(url)) return;
    cache.set(url, null);
    const fetched = await fetchCss(url).catch(() => null);
    const parsed = fetched ? parseSheet(fetched.url || url, fetched.text) : null;
    cache.set(url, parsed);
    if (parsed) {
      await Promise.all(
        parsed.imports.map((i) => resolveUrl(i.url, parsed.url)).map((target) => (target ? visit(target, depth + 1) : undefined)),
      );
    }
  };
  const visitRules = async (rules: readonly CSSRule[], depth: number): Promise<void> => {
    for (const rule of leadingImportRules(rules)) {
      const url = importUrl(rule);
      const readable = readableRules(rule.styleSheet);
      if (readable) await visitRules(readable, depth + 1);
      else if (url) await visit(url, depth + 1);
    }
  };
  await Promise.all(
    sheets.map((sheet) => {
      const rules = rulesOf(sheet);
      return rules ? visitRules(rules, 0) : sheet.href ? visit(sheet.href, 0) : undefined;
    }),
  );
}

/** The captured rules, or those of the live stylesheet read now (once: later calls see the same list). */
function rulesOf(sheet: CapturedSheet): CSSRule[] | null {
  if (sheet.live) {
    sheet.rules = readableRules(sheet.live);
    sheet.live = null;
  }
  return sheet.rules;
}

function parseSheet(url: string, text: string): FetchedSheet | null {
  const { imports, rest } = leadingImports(text);
  const sheet = new CSSStyleSheet({ baseURL: url });
  try {
    sheet.replaceSync(rest);
  } catch {
    return null;
  }
  return { url, rules: [...sheet.cssRules], imports };
}

/** `@import` rules come first (after `@layer` statements); the scan stops at the first other rule. */
function leadingImportRules(rules: readonly CSSRule[]): CSSImportRule[] {
  const imports: CSSImportRule[] = [];
  for (const rule of rules) {
    const type = rule.constructor.name;
    if (type === 'CSSImportRule') imports.push(rule as CSSImportRule);
    else if (type !== 'CSSLayerStatementRule') break;
  }
  return imports;
}

/** `href` is the address as written; the imported sheet's own `href` is the resolved one. */
function importUrl(rule: CSSImportRule): string | null {
  return rule.styleSheet?.href ?? resolveUrl(rule.href, rule.parentStyleSheet?.href ?? rule.parentStyleSheet?.ownerNode?.baseURI ?? '');
}

/**
 * The CSS text of one captured stylesheet, ready to go into a `<style>` of the snapshot; null for a
 * cross-origin stylesheet not (yet) fetched, which the caller keeps as a link.
 */
export function sheetToCss(sheet: CapturedSheet, ctx: CssContext): string | null {
  let css: string;
  const rules = rulesOf(sheet);
  if (rules) {
    css = joinScoped(rulesToCss(rules, sheet.baseUrl, ctx, 0), ctx.scope);
  } else {
    const fetched = sheet.href ? ctx.sheets.get(sheet.href) : null;
    if (!fetched) return null;
    css = fetchedToCss(fetched, ctx, 0);
  }
  return sheet.media && sheet.media !== 'all' ? `@media ${sheet.media} {\n${css}\n}` : css;
}

/** A fetched stylesheet: its imports inlined first (where @import stood), then its own rules. */
function fetchedToCss(fetched: FetchedSheet, ctx: CssContext, depth: number): string {
  let css = '';
  for (const statement of fetched.imports) {
    const target = resolveUrl(statement.url, fetched.url);
    const imported = target && depth + 1 <= ctx.maxImportDepth ? ctx.sheets.get(target) : null;
    if (imported) css += wrapImportConditions(fetchedToCss(imported, ctx, depth + 1), statement.conditions);
  }
  return css + joinScoped(rulesToCss(fetched.rules, fetched.url, ctx, depth), ctx.scope);
}

/** Global rules first (they must stay outside @scope), then the style rules, scoped if need be. */
function joinScoped(split: SplitCss, scope: CssScope): string {
  if (!split.scoped.trim()) return split.global;
  if (scope.kind === 'document') return `${split.global}${split.scoped}`;
  const root = scope.kind === 'frame' ? `[data-ds-frame="${scope.id}"]` : `[data-ds-shadow="${scope.id}"]`;
  return `${split.global}@scope (${root}) {\n${split.scoped}}\n`;
}

/** `@import` statements at the start of a stylesheet (the only place they count), and what follows. */
export function leadingImports(text: string): { imports: { url: string; conditions: string }[]; rest: string } {
  const imports: { url: string; conditions: string }[] = [];
  const statement =
    /^\s*(?:\/\*[\s\S]*?\*\/\s*)*(?:@charset\s+"[^"]*"\s*;\s*)?(?:\/\*[\s\S]*?\*\/\s*)*@import\s+(?:url\(\s*(['"]?)([^'")]+)\1\s*\)|(['"])([^'"]+)\3)([^;]*);/i;
  let rest = text;
  for (let match = statement.exec(rest); match; match = statement.exec(rest)) {
    imports.push({ url: (match[2] ?? match[4] ?? '').trim(), conditions: (match[5] ?? '').trim() });
    rest = rest.slice(match[0].length);
  }
  return { imports, rest };
}

/** `layer(x) supports(...) screen` → nested @layer, @supports and @media blocks around the text. */
export function wrapImportConditions(css: string, conditions: string): string {
  let rest = conditions.trim();
  let wrapped = css;
  const wrappers: string[] = [];
  const layer = /^layer(?:\(\s*([^)]*?)\s*\))?\s*/i.exec(rest);
  if (layer) {
    wrappers.push(layer[1] ? `@layer ${layer[1]}` : '@layer');
    rest = rest.slice(layer[0].length);
  }
  const supports = /^supports\(((?:[^()]|\([^()]*\))*)\)\s*/i.exec(rest);
  if (supports) {
    wrappers.push(`@supports (${supports[1]})`);
    rest = rest.slice(supports[0].length);
  }
  if (rest.trim()) wrappers.push(`@media ${rest.trim()}`);
  for (const wrapper of wrappers.reverse()) wrapped = `${wrapper} {\n${wrapped}\n}\n`;
  return wrapped;
}

/** Rules in order, each rewritten; the ones that cannot sit inside @scope kept apart. */
function rulesToCss(rules: readonly CSSRule[], baseUrl: string, ctx: CssContext, depth: number): SplitCss {
  const out: SplitCss = { global: '', scoped: '' };
  for (const rule of rules) {
    const part = ruleToCss(rule, baseUrl, ctx, depth);
    out.global += part.global;
    out.scoped += part.scoped;
  }
  return out;
}

/**
 * Rules are told apart by their class name, not instanceof: rules of a same-origin iframe belong to the
 * frame's window, whose CSSStyleRule is another object than this window's.
 */
function ruleToCss(rule: CSSRule, baseUrl: string, ctx: CssContext, depth: number): SplitCss {
  const type = rule.constructor.name;
  if (type === 'CSSImportRule') return { global: '', scoped: importRuleToCss(rule as CSSImportRule, ctx, depth) };
  if (type === 'CSSFontFaceRule') {
    // Only the first source (the preferred format, woff2 as a rule) is inlined: the others are fallbacks
    // for browsers that lack it, and would triple the font's bytes.
    const priority = ctx.loadedFonts.has(fontFaceKey((rule as CSSFontFaceRule).style)) ? 0 : 2;
    return { global: `${rewriteUrls(rule.cssText, baseUrl, ctx, { kind: 'font', priority, firstOnly: true })}\n`, scoped: '' };
  }
  if (GLOBAL_RULES.has(type)) return { global: `${rewriteUrls(rule.cssText, baseUrl, ctx, { kind: 'image', priority: 3 })}\n`, scoped: '' };
  if (type === 'CSSStyleRule') {
    const style = rule as CSSStyleRule;
    const plain = ctx.scope.kind === 'document' && !style.selectorText.includes('::part(');
    const text = plain ? rule.cssText : restyleSelector(style, ctx.scope);
    const used = !ctx.isUsed || !/url\(/i.test(text) || ctx.isUsed(style.selectorText);
    return { global: '', scoped: `${rewriteUrls(text, baseUrl, ctx, used ? { kind: 'image', priority: 3 } : null)}\n` };
  }
  if (isGroupingRule(rule)) {
    // @media, @supports, @container, @layer blocks, @scope, @starting-style: the prelude as the browser
    // wrote it, then the children rewritten one by one. Under a media query the recorded window did not
    // match, images are not inlined (the player shows the snapshot at the recorded size).
    const prelude = rule.cssText.slice(0, rule.cssText.indexOf('{')).trim();
    const media = type === 'CSSMediaRule' ? (rule as CSSMediaRule).media.mediaText : '';
    const shown = !media || !ctx.matchesMedia || ctx.matchesMedia(media);
    const inner = rulesToCss([...rule.cssRules], baseUrl, shown ? ctx : { ...ctx, isUsed: () => false }, depth);
    return {
      global: inner.global.trim() ? `${prelude} {\n${inner.global}}\n` : '',
      scoped: inner.scoped.trim() ? `${prelude} {\n${inner.scoped}}\n` : '',
    };
  }
  return { global: '', scoped: `${rewriteUrls(rule.cssText, baseUrl, ctx, { kind: 'image', priority: 3 })}\n` };
}

/**
 * An `@import`, inlined: a readable one from the CSSOM (its `styleSheet`), a cross-origin one (which throws
 * on `cssRules`) from what prefetchStylesheets fetched. Wrapped in what the import was conditional on.
 */
function importRuleToCss(rule: CSSImportRule, ctx: CssContext, depth: number): string {
  if (depth + 1 > ctx.maxImportDepth) return '';
  const url = importUrl(rule);
  if (!url) return '';
  const conditions = [
    rule.layerName === null ? '' : rule.layerName ? `layer(${rule.layerName})` : 'layer',
    rule.supportsText ? `supports(${rule.supportsText})` : '',
    rule.media.mediaText,
  ]
    .filter(Boolean)
    .join(' ');
  const rules = readableRules(rule.styleSheet);
  let css: string;
  if (rules) {
    css = joinScoped(rulesToCss(rules, url, ctx, depth + 1), ctx.scope);
  } else {
    const fetched = ctx.sheets.get(url);
    if (!fetched) return '';
    css = fetchedToCss(fetched, ctx, depth + 1);
  }
  return wrapImportConditions(css, conditions);
}

function isGroupingRule(rule: CSSRule): rule is CSSGroupingRule {
  return 'cssRules' in rule && 'insertRule' in rule;
}

/** The rules of a stylesheet, or null when the browser refuses them (a cross-origin sheet without CORS). */
export function readableRules(sheet: CSSStyleSheet | null | undefined): CSSRule[] | null {
  if (!sheet) return null;
  try {
    return [...sheet.cssRules];
  } catch {
    return null;
  }
}

/**
 * Every `url(...)` made absolute against the stylesheet's address (Chromium serialises them as written)
 * and, if `register` says so, registered for inlining. Written back as `url("…")`: URL serialisation
 * percent-encodes quotes.
 */
function rewriteUrls(css: string, baseUrl: string, ctx: CssContext, register: Registration): string {
  let registered = 0;
  return css.replace(CSS_URL, (whole, _quote: string, raw: string) => {
    const value = raw.trim();
    if (/^data:/i.test(value)) return whole;
    if (value.startsWith('#')) return whole; // an SVG fragment reference (filter: url(#x)) stays local
    const absolute = resolveUrl(value, baseUrl);
    if (!absolute) return 'url("about:invalid")';
    if (register && (!register.firstOnly || registered === 0)) ctx.addResource({ url: absolute, kind: register.kind, priority: register.priority });
    registered++;
    return `url("${absolute}")`;
  });
}

export const CSS_URL = /url\(\s*(["']?)((?:(?!\1\s*\)).)*?)\1\s*\)/gi;

/** An http(s) URL resolved against `base`, or null. */
export function resolveUrl(value: string, base: string): string | null {
  try {
    const url = new URL(value, base);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'data:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Identifies a font face across `@font-face` rules and `document.fonts`, to tell which ones were used. */
export function fontFaceKey(face: { getPropertyValue(name: string): string } | FontFace): string {
  const read = (name: 'family' | 'style' | 'weight') =>
    'getPropertyValue' in face ? face.getPropertyValue(name === 'family' ? 'font-family' : `font-${name}`) : face[name];
  const weight = read('weight').trim().toLowerCase();
  return [
    read('family').replace(/["']/g, '').trim().toLowerCase(),
    (read('style').trim() || 'normal').toLowerCase(),
    weight === '' || weight === 'normal' ? '400' : weight === 'bold' ? '700' : weight,
  ].join('|');
}

/** A style rule's text with its selector rewritten for the flattened frame or shadow root it came from. */
function restyleSelector(rule: CSSStyleRule, scope: CssScope): string {
  const text = rule.cssText;
  const body = text.startsWith(rule.selectorText) ? text.slice(rule.selectorText.length) : text.slice(text.indexOf('{'));
  const scoped = scope.kind === 'frame' ? frameSelector(rule.selectorText) : scope.kind === 'shadow' ? shadowSelector(rule.selectorText) : rule.selectorText;
  const selector = partSelector(scoped);
  return `${selector}${body}`;
}

const BOUNDARY_BEFORE = String.raw`(^|[\s>+~,(])`;
const BOUNDARY_AFTER = String.raw`(?=$|[\s>+~,.#:\[)])`;

/**
 * In a flattened frame the frame's `<html>` and `<body>` are divs: selectors naming them are pointed at
 * those divs. `:where()` keeps the specificity these rules had (a type selector's is nearly nothing).
 */
export function frameSelector(selector: string): string {
  return selector
    .replace(new RegExp(`${BOUNDARY_BEFORE}(?:html|:root)${BOUNDARY_AFTER}`, 'gi'), '$1:where([data-ds-frame-html])')
    .replace(new RegExp(`${BOUNDARY_BEFORE}body${BOUNDARY_AFTER}`, 'gi'), '$1:where([data-ds-frame-body])');
}

/**
 * Shadow-root selectors for the flattened tree, inside `@scope` of the host: `:host` is the scope root
 * (at zero specificity, so the page's own rules on the host still win as they do across the boundary),
 * `::slotted(x)` the children of a `<slot>`, `:host-context(x)` the host under an `x`.
 */
export function shadowSelector(selector: string): string {
  let out = replaceFunctional(selector, ':host-context(', (arg) => `:where(:scope):is(${arg}, ${arg} *)`);
  out = replaceFunctional(out, ':host(', (arg) => `:where(:scope):is(${arg})`);
  out = out.replace(/:host(?![\w-])/g, ':where(:scope)');
  out = replaceFunctional(out, '::slotted(', (arg, before) => (/[\s>+~,(]$|^$/.test(before) ? `slot > :is(${arg})` : ` > :is(${arg})`));
  return out;
}

/**
 * `x-card::part(title)` styles the element of x-card's shadow root that has part="title". Once the shadow
 * root is flattened, that element is an ordinary descendant of the host.
 */
export function partSelector(selector: string): string {
  if (!selector.includes('::part(')) return selector;
  return replaceFunctional(selector, '::part(', (arg) => ` ${arg.trim().split(/\s+/).map((part) => `[part~="${part}"]`).join('')}`);
}

/** Replaces each `name(arg)` (matching nested parentheses) with `replace(arg, textBefore)`. */
function replaceFunctional(text: string, name: string, replace: (arg: string, before: string) => string): string {
  let out = '';
  let index = 0;
  for (let at = text.indexOf(name, index); at !== -1; at = text.indexOf(name, index)) {
    let depth = 1;
    let end = at + name.length;
    for (; end < text.length && depth > 0; end++) {
      if (text[end] === '(') depth++;
      else if (text[end] === ')') depth--;
    }
    const arg = text.slice(at + name.length, end - 1);
    out += text.slice(index, at);
    out += replace(arg, out);
    index = end;
  }
  return out + text.slice(index);
}

/**
 * Put in front of every flattened frame's CSS: the frame's box inherits nothing from the page around it
 * (an iframe's document does not), and its html and body stand-ins get the browser's defaults for html
 * and body. Zero specificity, so the frame's own rules for html and body override them.
 */
export const FRAME_RESET_CSS = `:where([data-ds-frame]) { all: initial; display: block; contain: layout paint; }
:where([data-ds-frame-html]) { display: flow-root; min-height: 100%; }
:where([data-ds-frame-body]) { display: block; margin: 8px; }
`;
