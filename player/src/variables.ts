/**
 * Personalisation variables: `{{name}}` and `{{name|fallback}}` in a demo's text, filled with the viewer's
 * values. Values are always inserted as text (string replacement or a text node's value), never parsed as
 * HTML, so no markup or script can enter through them. No imports: the player's bundle stays small.
 */

/**
 * A copy of VARIABLE_PATTERN in src/demos/story.schemas.ts (the player cannot import server code);
 * test/player-variables.test.ts asserts that both are identical.
 */
export const VARIABLE_PATTERN = /\{\{\s*([a-z][a-z0-9_]{0,39})\s*(?:\|([^{}]*))?\}\}/g;

/** Names as in the pattern (and share links' `variables`): a lowercase letter, then up to 39 of a-z, 0-9, _. */
const NAME = /^[a-z][a-z0-9_]{0,39}$/;
/** A longer value is cut: a name or a company never needs more, and a URL cannot blow up a tooltip. */
export const MAX_VALUE_LENGTH = 200;
/** At most this many variables from one source (a URL can carry any number of parameters). */
export const MAX_VARIABLES = 50;

export type Variables = Record<string, string>;

const own = (vars: Variables, name: string): boolean => Object.hasOwn(vars, name);

/**
 * Replaces each `{{name}}` / `{{name|fallback}}` in `text` with the variable's value, else the fallback
 * (trimmed), else ''. A name is looked up as an own property only (`{{constructor}}` is not Object's).
 *
 * @example fillText('Hi {{first_name|there}}', { first_name: 'Dana' }) // 'Hi Dana'
 */
export function fillText(text: string, vars: Variables): string {
  if (text.indexOf('{{') < 0) return text;
  return text.replace(VARIABLE_PATTERN, (_match, name: string, fallback: string | undefined) => {
    const value = own(vars, name) ? vars[name] : undefined;
    if (typeof value === 'string' && value !== '') return value;
    return fallback === undefined ? '' : fallback.trim();
  });
}

/** The minimal shape of a DOM node fillTextNodes needs (a real Node, or a test's plain object). */
export interface TextTreeNode {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  childNodes: ArrayLike<TextTreeNode>;
}

const TEXT_NODE = 3;
/** Their text is code or style, not words on the page: a value must never land in a script. */
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'script', 'style']);

/** Each filled text node's template and what was written, so a second fill (new form values) starts over. */
const templates = new WeakMap<object, { template: string; filled: string }>();

/**
 * Fills variables in every text node under `root` (rich text, a snapshot's document), setting the node's
 * value: never innerHTML, so a value is text whatever it contains. Script and style contents are left
 * alone. Calling it again with other values refills from the original text. Returns the number of text
 * nodes changed.
 */
export function fillTextNodes(root: TextTreeNode | Node, vars: Variables): number {
  let changed = 0;
  const stack: TextTreeNode[] = [root as TextTreeNode];
  while (stack.length > 0) {
    const node = stack.pop() as TextTreeNode;
    if (node.nodeType === TEXT_NODE) {
      const current = node.nodeValue ?? '';
      const known = templates.get(node);
      const template = known && known.filled === current ? known.template : current;
      if (template.indexOf('{{') < 0) continue;
      const filled = fillText(template, vars);
      templates.set(node, { template, filled });
      if (filled !== current) {
        node.nodeValue = filled;
        changed++;
      }
      continue;
    }
    if (SKIPPED.has(node.nodeName)) continue;
    const children = node.childNodes;
    // Pushed in reverse so nodes are visited in document order (only matters for readers of the count).
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as TextTreeNode);
  }
  return changed;
}

/**
 * A variable's name as written in a URL or a form (`First-Name`, `company name`): lowercased, separators
 * to `_`, other characters dropped. Null when nothing valid remains.
 */
export function normaliseName(raw: string): string | null {
  const name = raw
    .trim()
    .toLowerCase()
    .replace(/[\s.-]+/g, '_')
    .replace(/[^a-z0-9_]/g, '');
  return NAME.test(name) ? name : null;
}

/** A value as text: trimmed and capped. Empty means absent (an empty parameter keeps the link's value). */
export function normaliseValue(raw: unknown): string | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const value = String(raw).trim().slice(0, MAX_VALUE_LENGTH).trim();
  return value === '' ? null : value;
}

export interface VariableSources {
  /** The share link's `variables` (viewer payload). */
  link?: Record<string, unknown> | null;
  /** URL parameters: `location.search`, a URLSearchParams, or a name → value record. */
  url?: string | URLSearchParams | Record<string, unknown> | null;
  /** Identification and lead form values (later wins). Booleans (checkboxes) are not text and are ignored. */
  values?: Record<string, unknown> | null;
}

function entriesOf(source: VariableSources['url']): Array<[string, unknown]> {
  if (source === null || source === undefined) return [];
  if (typeof source === 'string') return Array.from(new URLSearchParams(source).entries());
  if (typeof URLSearchParams !== 'undefined' && source instanceof URLSearchParams) {
    return Array.from(source.entries());
  }
  return Object.keys(source).map((key) => [key, (source as Record<string, unknown>)[key]]);
}

/**
 * Merges the sources, later wins: link variables < URL parameters < identification/form values. Names are
 * normalised (invalid ones dropped), values trimmed and capped; an empty value does not override.
 *
 * @example collectVariables({ link: { company: 'Acme' }, url: '?company=Globex', values: {} }) // { company: 'Globex' }
 */
export function collectVariables(sources: VariableSources): Variables {
  const vars: Variables = {};
  const layers = [sources.link ?? null, sources.url ?? null, sources.values ?? null];
  for (const layer of layers) {
    let taken = 0;
    for (const [rawName, rawValue] of entriesOf(layer)) {
      if (taken >= MAX_VARIABLES) break;
      const name = normaliseName(rawName);
      const value = normaliseValue(rawValue);
      if (name === null || value === null) continue;
      vars[name] = value;
      taken++;
    }
  }
  return vars;
}
