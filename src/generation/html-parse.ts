// Every page Demoshare parses goes through here: nesting is capped at Chromium's own depth, so a hostile page cannot make parsing quadratic or the serialiser overflow.
import { type Document, DomHandler } from 'domhandler';
import { Parser } from 'htmlparser2';

/**
 * How deep elements may nest in a document Demoshare parses: Chromium's own HTML parser nests no deeper
 * (kMaximumHTMLParserDOMTreeDepth), so no page a browser parsed is refused. Past it, htmlparser2's stack of
 * open elements costs time quadratic in the depth, and recursive code over the tree (the serialiser) runs
 * out of stack.
 */
export const MAX_NESTING_DEPTH = 512;

/** A document nested deeper than MAX_NESTING_DEPTH: refused while parsing, before the tree grows past it. */
export class NestingTooDeepError extends Error {
  override name = 'NestingTooDeepError';
  readonly limit = MAX_NESTING_DEPTH;

  constructor() {
    super(`elements are nested more than ${MAX_NESTING_DEPTH} levels deep (the limit is ${MAX_NESTING_DEPTH})`);
  }
}

/** Builds the tree as htmlparser2's own handler does, counting open elements as they open. */
class DepthLimitedHandler extends DomHandler {
  override onopentag(name: string, attribs: Record<string, string>): void {
    // The stack holds the document itself and each open element: its length is the new element's depth.
    if (this.tagStack.length > MAX_NESTING_DEPTH) throw new NestingTooDeepError();
    super.onopentag(name, attribs);
  }
}

/**
 * `parseDocument` of htmlparser2 with the nesting limit: throws NestingTooDeepError at the first element
 * past it, so a document of 100,000 unclosed elements stops after 513 of them.
 */
export function parseHtml(html: string): Document {
  const handler = new DepthLimitedHandler();
  new Parser(handler).end(html);
  return handler.root;
}
