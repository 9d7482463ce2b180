// Rich text of tooltips and step descriptions: an allow-list sanitiser run on the way in, so that what is
// stored (and served to viewers) is safe HTML, and the plain text clients that read only `tooltip` /
// `description` keep seeing.
import render from 'dom-serializer';
import { type ChildNode, Element, isTag, isText, Text } from 'domhandler';
import { parseDocument } from 'htmlparser2';

/** Elements kept (with their content); any other element is dropped but its text kept, except these. */
const ALLOWED = new Set(['b', 'strong', 'i', 'em', 'a', 'ul', 'ol', 'li', 'p', 'br']);
/** Elements whose content is never text a reader should see: dropped whole. */
const DROPPED_WITH_CONTENT = new Set(['script', 'style', 'template', 'iframe', 'object', 'embed', 'noscript', 'svg', 'math', 'head', 'title', 'textarea', 'select']);
/** Where plain text breaks a line. */
const BLOCKS = new Set(['p', 'li', 'br', 'ul', 'ol', 'div']);

const SAFE_HREF = /^(https?:|mailto:)/i;

/** The most HTML a request may carry in one rich-text field (the sanitiser runs on the request). */
export const RICH_TEXT_MAX = 10_000;

export interface RichText {
  /** The sanitised HTML; empty when nothing of the input survives. */
  html: string;
  /** Its text: tags gone, entities decoded, lines for paragraphs and list items, runs of spaces as one. */
  text: string;
}

/**
 * Keeps b, strong, i, em, a (href http(s) or mailto only; `target="_blank"` and `rel="noopener noreferrer
 * nofollow"` forced), ul, ol, li, p and br, without any other attribute; other elements go but leave their
 * text, except scripts, styles and the like, which go whole. Comments and processing instructions go.
 *
 * @example
 * ```ts
 * sanitizeRichText('<b onclick="x()">Hi</b> <a href="javascript:alert(1)">there</a>');
 * // { html: '<b>Hi</b> there', text: 'Hi there' }
 * ```
 */
export function sanitizeRichText(input: string): RichText {
  const doc = parseDocument(input, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  const kept = clean(doc.children);
  const html = render(kept, { encodeEntities: 'utf8', selfClosingTags: false }).trim();
  return { html, text: plainText(kept) };
}

function clean(nodes: ChildNode[]): ChildNode[] {
  const out: ChildNode[] = [];
  for (const node of nodes) {
    if (isText(node)) {
      out.push(new Text(node.data));
    } else if (isTag(node)) {
      const name = node.name.toLowerCase();
      if (DROPPED_WITH_CONTENT.has(name)) continue;
      const children = clean(node.children);
      if (!ALLOWED.has(name)) {
        // Unknown element: its text stays, a block still breaks the line.
        out.push(...children);
        if (BLOCKS.has(name) && children.length > 0) out.push(new Element('br', {}));
        continue;
      }
      const attributes = attributesOf(name, node.attribs);
      // An anchor without a safe link is no link: its text stays.
      if (name === 'a' && !attributes.href) {
        out.push(...children);
        continue;
      }
      out.push(new Element(name, attributes, name === 'br' ? [] : children));
    }
    // Comments, CDATA and directives are dropped.
  }
  return out;
}

function attributesOf(name: string, attribs: Record<string, string>): Record<string, string> {
  if (name !== 'a') return {};
  const href = (attribs.href ?? '').trim();
  if (!SAFE_HREF.test(href)) return {};
  return { href, target: '_blank', rel: 'noopener noreferrer nofollow' };
}

function plainText(nodes: ChildNode[]): string {
  const parts: string[] = [];
  const walk = (list: ChildNode[]) => {
    for (const node of list) {
      if (isText(node)) parts.push(node.data);
      else if (isTag(node)) {
        if (node.name === 'br') {
          parts.push('\n');
          continue;
        }
        if (BLOCKS.has(node.name)) parts.push('\n');
        if (node.name === 'li') parts.push('• ');
        walk(node.children);
        if (BLOCKS.has(node.name)) parts.push('\n');
      }
    }
  };
  walk(nodes);
  return parts
    .join('')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line.length > 0)
    .join('\n');
}

/**
 * A rich-text field of a request as stored: the sanitised HTML (null when nothing is left of it) and the
 * plain text that goes into its plain field, cut to that field's `plainMax`.
 */
export function richTextField(input: string, plainMax: number): { html: string | null; text: string } {
  const { html, text } = sanitizeRichText(input);
  return { html: html.length > 0 ? html : null, text: text.slice(0, plainMax) };
}
