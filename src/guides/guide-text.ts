// A step's rich text (sanitised HTML, or plain text) as a guide prints it: Markdown for guide.md, HTML for the PDF; variables as their fallback.
import { type ChildNode, isTag, isText } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { sanitizeRichText } from '../demos/rich-text';
import { VARIABLE_PATTERN } from '../demos/story.schemas';

/** A text as stored: `html` (sanitised rich text) when the author formatted it, else the plain `text`. */
export interface StoredText {
  html: string | null;
  text: string;
}

/**
 * `{{name|fallback}}` becomes its fallback and `{{name}}` nothing, as the player shows them to a viewer it
 * knows nothing about: a guide is read by everyone.
 */
export function fillVariables(text: string): string {
  return text.replace(VARIABLE_PATTERN, (_m, _name: string, fallback: string | undefined) => (fallback ?? '').trim());
}

/** Spaces a variable without a fallback leaves behind: doubled, or before punctuation. */
const tidy = (text: string) => text.replace(/[ \t]{2,}/g, ' ').replace(/ ([,.;:!?])/g, '$1');

/** The plain text of a stored text, variables filled (for comparing a tooltip with a description, alt text). */
export function plainOf(value: StoredText): string {
  const text = value.html ? sanitizeRichText(value.html).text : value.text;
  return tidy(fillVariables(text)).trim();
}

// --- Markdown -------------------------------------------------------------------------------------------

/** Characters that would start Markdown syntax inside running text. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/([\\`*_[\]<>|])/g, '\\$1')
    .replace(/^(\s*)([#+-]|\d+[.)])(\s)/gm, (_m, space: string, mark: string, after: string) => `${space}${mark.replace(/([#+\-.)])/, '\\$1')}${after}`);
}

/**
 * A stored text as Markdown: paragraphs, **bold**, *italic*, [links](https://...), bulleted and numbered
 * lists (nested ones indented), line breaks; everything else as escaped text. Plain text keeps its lines.
 *
 * @example
 * ```ts
 * toMarkdown({ html: '<p>Send <b>{{company|your}}</b> invoice: <a href="https://a.example">help</a></p>', text: '' });
 * // 'Send **your** invoice: [help](https://a.example)'
 * ```
 */
export function toMarkdown(value: StoredText): string {
  if (!value.html) {
    return fillVariables(value.text)
      .split(/\n{2,}/)
      .map((para) =>
        para
          .split('\n')
          .map((line) => escapeMarkdown(tidy(line).trim()))
          .filter(Boolean)
          .join('  \n'),
      )
      .filter(Boolean)
      .join('\n\n');
  }
  const doc = parseDocument(sanitizeRichText(value.html).html, { decodeEntities: true });
  return blocksToMarkdown(doc.children, '').trim();
}

/** Block-level Markdown of `nodes`, each line prefixed with `indent` (inside list items). */
function blocksToMarkdown(nodes: ChildNode[], indent: string): string {
  const blocks: string[] = [];
  let inline: ChildNode[] = [];
  const flush = () => {
    const text = inlineMarkdown(inline).trim();
    if (text) blocks.push(text);
    inline = [];
  };
  for (const node of nodes) {
    if (isTag(node) && (node.name === 'p' || node.name === 'ul' || node.name === 'ol')) {
      flush();
      if (node.name === 'p') {
        const text = inlineMarkdown(node.children).trim();
        if (text) blocks.push(text);
      } else {
        const ordered = node.name === 'ol';
        const items = node.children.filter((c) => isTag(c) && c.name === 'li');
        const lines = items.map((item, i) => {
          const marker = ordered ? `${i + 1}. ` : '- ';
          const body = blocksToMarkdown((item as { children: ChildNode[] }).children, ' '.repeat(marker.length));
          return `${marker}${body.trimStart()}`;
        });
        if (lines.length > 0) blocks.push(lines.join('\n'));
      }
    } else {
      inline.push(node);
    }
  }
  flush();
  // Blocks inside a list item are indented under its marker; a paragraph break stays one.
  return blocks
    .join(indent ? '\n' : '\n\n')
    .split('\n')
    .map((line, i) => (i === 0 || !line ? line : `${indent}${line}`))
    .join('\n');
}

function inlineMarkdown(nodes: ChildNode[]): string {
  let out = '';
  for (const node of nodes) {
    if (isText(node)) out += escapeMarkdown(tidy(fillVariables(node.data.replace(/\s+/g, ' '))));
    else if (isTag(node)) {
      const inner = () => inlineMarkdown(node.children);
      switch (node.name) {
        case 'b':
        case 'strong':
          out += wrap(inner(), '**');
          break;
        case 'i':
        case 'em':
          out += wrap(inner(), '*');
          break;
        case 'a': {
          const text = inner().trim();
          const href = node.attribs.href ?? '';
          // Parentheses and spaces would end the destination early: percent-encoded, the address is the same.
          out += text ? `[${text}](${markdownUrl(href)})` : '';
          break;
        }
        case 'br':
          out += '  \n';
          break;
        default:
          // Lists inside inline content (an <li> holding a nested list) are handled by the block walker.
          out += ` ${blocksToMarkdown([node], '  ')} `;
      }
    }
  }
  return out;
}

/** `**text**` with the spaces kept outside the markers, where Markdown needs them. */
function wrap(text: string, mark: string): string {
  const match = /^(\s*)(.*?)(\s*)$/s.exec(text)!;
  return match[2] ? `${match[1]}${mark}${match[2]}${mark}${match[3]}` : text;
}

/** An address as a Markdown link destination: parentheses, spaces and angle brackets, which would end it early, percent-encoded (the same address). */
export function markdownUrl(url: string): string {
  return url.replace(/[()<>\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

// --- HTML -----------------------------------------------------------------------------------------------

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const HTML_KEPT = new Set(['b', 'strong', 'i', 'em', 'a', 'ul', 'ol', 'li', 'p', 'br']);

/**
 * A stored text as HTML for the printed guide: the sanitiser's allow-list again (what is stored was
 * sanitised on the way in; this does not trust it), variables filled, links without `target`.
 */
export function toHtml(value: StoredText): string {
  if (!value.html) {
    return fillVariables(value.text)
      .split(/\n{2,}/)
      .map((para) => para.split('\n').map((line) => escapeHtml(tidy(line).trim())).filter(Boolean).join('<br>'))
      .filter(Boolean)
      .map((para) => `<p>${para}</p>`)
      .join('');
  }
  const doc = parseDocument(sanitizeRichText(value.html).html, { decodeEntities: true });
  const render = (nodes: ChildNode[]): string =>
    nodes
      .map((node) => {
        if (isText(node)) return escapeHtml(tidy(fillVariables(node.data)));
        if (!isTag(node) || !HTML_KEPT.has(node.name)) return '';
        if (node.name === 'br') return '<br>';
        if (node.name === 'a') return `<a href="${escapeHtml(node.attribs.href ?? '')}">${render(node.children)}</a>`;
        return `<${node.name}>${render(node.children)}</${node.name}>`;
      })
      .join('');
  const html = render(doc.children);
  // Loose inline text (no <p>) still reads as a paragraph.
  return /^\s*<(p|ul|ol)>/.test(html) ? html : `<p>${html}</p>`;
}
