// Builds a page's snapshot without holding the event loop: the CPU steps run in the document workers, only the fetches between them run here.
import type { SafeFetch } from '../core/net/safe-fetch';
import type { DocumentPool } from '../document-tasks';
import { fetchFonts } from './font-inliner';
import type { ElementLayout } from './html-elements';
import type { Snapshot } from './snapshot-work';

export type { Snapshot } from './snapshot-work';
export { LAYOUT_ATTRIBUTE } from './snapshot-work';

/** The document workers, as the snapshot steps need them (the process's one pool). */
export type SnapshotWorkers = Pick<DocumentPool, 'run'>;

export interface SnapshotOptions {
  net: SafeFetch;
  documents: SnapshotWorkers;
  /** Deadline of this page, as epoch milliseconds. */
  deadline: number;
  /** Layout per element, keyed by the `data-ds-n` number the in-page probe stamped (Chromium mode). */
  layout?: Map<number, ElementLayout>;
  /** Stylesheets already fetched (by the browser), by address. */
  stylesheets?: Map<string, { url: string; body: Buffer }>;
}

const MAX_SHEETS = 6;
const MAX_SHEET_BYTES = 512 * 1024;
const MAX_INLINED_BYTES = 1024 * 1024;

/**
 * Parses a page's HTML, sanitises it, inlines its stylesheets and fonts (fetched through the SSRF guard,
 * within a cap; the rest stay as absolute links), and reads the facts a tour is written from. The parsing,
 * cleaning and serialising run in the document workers (snapshot-work.ts); this thread only fetches, so a
 * heavy page never holds the event loop. A page nested too deep fails with NestingTooDeepError's message.
 */
export async function buildSnapshot(html: string, pageUrl: string, options: SnapshotOptions): Promise<Snapshot> {
  const work = { field: 'html', what: `The page ${pageUrl}` };
  const prepared = await options.documents.run('prepareSnapshot', [html, pageUrl], work);
  const fetched = await fetchStylesheets(prepared.stylesheets, options);
  const sheets = fetched.some((sheet) => sheet !== null)
    ? await options.documents.run('prepareSheets', [fetched.filter((sheet) => sheet !== null)], work)
    : [];
  // Back in the links' numbering: the prepared sheets are the fetched ones, in order.
  let next = 0;
  const byLink = fetched.map((sheet) => (sheet === null ? null : sheets[next++]!));
  const fontUrls = prepared.styles.flatMap((style) => ('fonts' in style ? style.fonts : (byLink[style.sheet]?.fonts ?? [])));
  const fonts = fontUrls.length > 0 ? await fetchFonts(fontUrls, options) : new Map<string, string | null>();
  return options.documents.run(
    'finishSnapshot',
    [
      prepared.html,
      pageUrl,
      {
        sheets: byLink.map((sheet) => sheet?.css ?? null),
        fonts: [...fonts],
        layout: options.layout ? [...options.layout] : undefined,
      },
    ],
    work,
  );
}

/** The CSS of the first MAX_SHEETS stylesheets, within the byte cap, by link number (null: stays a link). */
async function fetchStylesheets(hrefs: string[], options: SnapshotOptions): Promise<Array<{ css: string; url: string } | null>> {
  const out: Array<{ css: string; url: string } | null> = hrefs.map(() => null);
  let inlined = 0;
  for (const [i, href] of hrefs.slice(0, MAX_SHEETS).entries()) {
    const remaining = options.deadline - Date.now();
    if (!href || remaining < 500 || inlined >= MAX_INLINED_BYTES) continue;
    try {
      const sheet = options.stylesheets?.get(href) ?? (await fetchStylesheet(href, options, Math.min(MAX_SHEET_BYTES, MAX_INLINED_BYTES - inlined), remaining));
      if (!sheet || sheet.body.length > Math.min(MAX_SHEET_BYTES, MAX_INLINED_BYTES - inlined)) continue;
      inlined += sheet.body.length;
      out[i] = { css: sheet.body.toString('utf8'), url: sheet.url };
    } catch {
      // An unreachable or refused stylesheet stays an absolute link; the snapshot is still usable.
    }
  }
  return out;
}

async function fetchStylesheet(href: string, options: SnapshotOptions, maxBytes: number, remaining: number) {
  const res = await options.net.fetch(href, {
    maxRedirects: 3,
    maxBytes,
    timeoutMs: Math.min(remaining, 5_000),
    headers: { accept: 'text/css,*/*;q=0.1' },
  });
  return res.status === 200 && !res.truncated ? { url: res.url, body: res.body } : null;
}
