// The words of a captured page: found for export, replaced when a language is served. Both run in the document workers.
import render from 'dom-serializer';
import { type AnyNode, isTag, isText, type Text } from 'domhandler';
import { applyPagePatches } from '../demos/apply-page-patches';
import type { PagePatch } from '../demos/story.schemas';
import { parseHtml } from '../generation/html-parse';
import type { PageTranslation } from './translation-units';

/** Elements whose text is not words a viewer reads. */
const SKIPPED = new Set(['head', 'script', 'style', 'noscript', 'template', 'svg', 'math', 'textarea', 'code', 'pre', 'xmp', 'iframe']);
/** At most this many texts of one page are units: a page past it is mostly data, not prose. */
export const PAGE_TEXT_MAX = 2000;
/** A text counts when it has a letter: numbers, prices and punctuation stay as captured. */
const WORDY = /\p{L}/u;

/** The page's text nodes that are units, in document order (the walk both functions share). */
function wordyTexts(root: AnyNode[]): Text[] {
  const out: Text[] = [];
  const walk = (nodes: AnyNode[]) => {
    for (const node of nodes) {
      if (out.length >= PAGE_TEXT_MAX) return;
      if (isText(node)) {
        if (WORDY.test(node.data)) out.push(node);
      } else if (isTag(node)) {
        if (!SKIPPED.has(node.name)) walk(node.children);
      } else if ('children' in node && Array.isArray(node.children)) walk(node.children as AnyNode[]);
    }
  };
  walk(root);
  return out;
}

const normal = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * The texts of a captured page, each with its runs of white space as one space and trimmed: the
 * `page.<step>.<n>` units, n being the index here. CPU-heavy: a document worker task.
 */
export function pageTexts(html: string): string[] {
  return wordyTexts(parseHtml(html).children).map((t) => normal(t.data));
}

/**
 * The page with its translated texts put in (each only where the page still has its source at that index, so
 * a page captured again shows as captured), then its page patches applied as served (apply-page-patches.ts).
 * The white space around a text is kept. CPU-heavy: a document worker task.
 */
export function translatePage(html: string, texts: PageTranslation, patches: PagePatch[], imageUrls: Readonly<Record<string, string>>): string {
  const doc = parseHtml(html);
  const nodes = wordyTexts(doc.children);
  for (const [index, source, target] of texts) {
    const node = nodes[index];
    if (!node || normal(node.data) !== source) continue;
    const lead = /^\s*/.exec(node.data)![0];
    const trail = /\s*$/.exec(node.data)![0];
    node.data = `${lead}${target}${trail}`;
  }
  const out = render(doc, { encodeEntities: 'utf8' });
  return patches.length > 0 ? applyPagePatches(out, patches, imageUrls).html : out;
}
