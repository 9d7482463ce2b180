// Applying a step's page patches (edited text, hidden elements, swapped images) to its HTML snapshot as stored.
import { selectAll } from 'css-select';
import render from 'dom-serializer';
import { type AnyNode, type Element, isTag, Text } from 'domhandler';
import { removeElement } from 'domutils';
import { parseHtml } from '../generation/html-parse';
import type { PagePatch } from './story.schemas';

/**
 * Elements whose text the serialiser writes out raw (not escaped): a `text` patch is never applied to them,
 * so no value can close them and open markup of its own. A snapshot shows none of them as words anyway.
 */
const RAW_TEXT = new Set(['style', 'script', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext', 'noscript']);

/** How a hidden element renders; kept in the document so selectors of hotspots and later patches still find their elements. */
export const HIDDEN_STYLE = 'display: none !important';

export interface PatchedSnapshot {
  html: string;
  /** Per patch, in the order given: how many elements it changed (0: its selector found nothing it applies to, so it was skipped). */
  applied: number[];
}

/** An `<img>` for an `image` patch: the element itself, or the one image of a `<picture>`. */
function imageOf(el: Element): Element | undefined {
  if (el.name === 'img') return el;
  if (el.name === 'picture') return el.children.find((c): c is Element => isTag(c) && c.name === 'img');
  return undefined;
}

function applyOne(el: Element, patch: PagePatch, imageUrls: Readonly<Record<string, string>>): boolean {
  switch (patch.op) {
    case 'text': {
      if (RAW_TEXT.has(el.name)) return false;
      for (const child of [...el.children]) removeElement(child);
      // A text node: the serialiser escapes it, so a value is always words on the page, never markup.
      const node = new Text(patch.value ?? '');
      node.parent = el;
      el.children = [node];
      return true;
    }
    case 'hide': {
      const style = (el.attribs.style ?? '').trim().replace(/;\s*$/, '');
      el.attribs.style = style === '' ? HIDDEN_STYLE : `${style}; ${HIDDEN_STYLE}`;
      return true;
    }
    case 'image': {
      const img = imageOf(el);
      const url = patch.value ? imageUrls[patch.value] : undefined;
      if (!img || !url) return false;
      img.attribs.src = url;
      // The page's own candidates would win over src in the browser.
      delete img.attribs.srcset;
      delete img.attribs.sizes;
      if (img.parent && isTag(img.parent) && img.parent.name === 'picture') {
        for (const source of img.parent.children.filter((c) => isTag(c) && c.name === 'source')) removeElement(source);
      }
      return true;
    }
  }
}

/**
 * The snapshot with its patches applied in order (a later patch of the same element wins). A selector that
 * finds nothing, or an element a patch does not apply to (text of a style sheet, an image patch on a
 * paragraph, an image asset not given in `imageUrls`), is skipped: a snapshot is always served, whatever its
 * patches say. `imageUrls` maps the asset ids of `image` patches to the addresses the document may load them
 * from (the viewer's or the editor's route). An invalid selector is skipped as well: they are checked when
 * written (page-patches.ts). CPU-heavy: runs in the document workers (document-tasks.ts).
 */
export function applyPagePatches(html: string, patches: PagePatch[], imageUrls: Readonly<Record<string, string>>): PatchedSnapshot {
  const doc = parseHtml(html);
  const applied = patches.map((patch) => {
    let found: Element[];
    try {
      found = selectAll<AnyNode, Element>(patch.selector, doc);
    } catch {
      return 0;
    }
    let count = 0;
    for (const el of found) if (applyOne(el, patch, imageUrls)) count++;
    return count;
  });
  return { html: render(doc, { encodeEntities: 'utf8' }), applied };
}

/** Per patch, whether its selector finds an element of the snapshot it applies to (regeneration keeps those). */
export function matchPagePatches(html: string, patches: PagePatch[]): boolean[] {
  const doc = parseHtml(html);
  return patches.map((patch) => {
    try {
      const found = selectAll<AnyNode, Element>(patch.selector, doc);
      if (patch.op === 'image') return found.some((el) => imageOf(el) !== undefined);
      if (patch.op === 'text') return found.some((el) => !RAW_TEXT.has(el.name));
      return found.length > 0;
    } catch {
      return false;
    }
  });
}
