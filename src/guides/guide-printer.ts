// Printing a guide's HTML to PDF in headless Chromium (page.pdf): one browser per printer, a few pages at once, each with a time budget and no network (run in guide-print-worker.ts's thread).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { AppError } from '../core/errors';
import { CHROMIUM_BASE_ARGS } from '../generation/chromium';

export interface PrinterOptions {
  /** CHROMIUM_PATH as the config resolved it; null: no browser, and PDF answers 503. */
  chromiumPath: string | null;
  /** PDFs printed at once; more wait in line. */
  concurrency: number;
  /** PDFs that may wait; one more is refused at once with 503 and Retry-After. */
  maxQueue: number;
  /** How long one print may take once it has a page (loading, layout, page.pdf), in ms. */
  timeoutMs: number;
  log?: { info(obj: object, msg: string): void };
}

export interface PrintJob {
  /** The page (guide.html); its pictures are addressed relative to it. */
  html: string;
  /** Files the page loads, by their relative path (`images/01-….png`). */
  files: Map<string, { contentType: string; bytes: Buffer }>;
  /** The footer's left side (the guide's title); page numbers are on its right. */
  footer: string;
}

const RETRY_AFTER_SECONDS = '5';

/** Thrown (as a 503) when the server has no Chromium: PDF needs one, Markdown does not. */
export const noChromium = () =>
  new AppError('unavailable', 'PDF guides need Chromium on the server, and this one has none (CHROMIUM_PATH): export the guide as Markdown instead', {
    details: [{ field: 'format', message: 'pdf needs Chromium on the server (CHROMIUM_PATH); markdown works without it' }],
  });

/**
 * Prints guides to PDF. The browser (a child process, so its work is off the event loop) starts on the
 * first print and serves every later one, a fresh context each (JavaScript off, the page and its pictures
 * read from a private temporary folder, removed after; any other request aborted). `concurrency` prints run at once, `maxQueue` wait; a print
 * past `timeoutMs` is abandoned with a 413 naming the limit.
 *
 * @example
 * ```ts
 * const printer = createGuidePrinter({ chromiumPath: '/usr/bin/chromium', concurrency: 2, maxQueue: 8, timeoutMs: 60_000 });
 * const pdf = await printer.print({ html: '<h1>Hi</h1>', files: new Map(), footer: 'Hi' });
 * await printer.close();
 * ```
 */
export function createGuidePrinter(options: PrinterOptions) {
  let browser: Promise<Browser> | null = null;
  let running = 0;
  const waiting: Array<() => void> = [];

  function launch(executable: string): Promise<Browser> {
    browser ??= chromium.launch({ executablePath: executable, args: [...CHROMIUM_BASE_ARGS], timeout: 30_000 }).then(
      (launched) => {
        launched.on('disconnected', () => {
          browser = null;
        });
        options.log?.info({ path: executable, version: launched.version() }, 'guides: browser started');
        return launched;
      },
      (error: Error) => {
        browser = null;
        throw new AppError('unavailable', `Chromium could not be started for the PDF: ${error.message.split('\n')[0]}`, {
          headers: { 'retry-after': RETRY_AFTER_SECONDS },
        });
      },
    );
    return browser;
  }

  async function slot(): Promise<() => void> {
    if (running >= options.concurrency) {
      if (waiting.length >= options.maxQueue) {
        throw new AppError('unavailable', 'The server is printing other guides: try again in a few seconds', {
          headers: { 'retry-after': RETRY_AFTER_SECONDS },
        });
      }
      // The print finishing hands its place over (below): nobody slips in between.
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else {
      running++;
    }
    return () => {
      const next = waiting.shift();
      if (next) next();
      else running--;
    };
  }

  async function print(job: PrintJob): Promise<Buffer> {
    const executable = options.chromiumPath;
    if (!executable) throw noChromium();
    const release = await slot();
    let context: BrowserContext | undefined;
    let dir: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      context = await (await launch(executable)).newContext({ javaScriptEnabled: false, serviceWorkers: 'block', acceptDownloads: false });
      // The page and its pictures are files of a private folder: Chromium reads them itself, so megabytes of
      // pictures never cross the DevTools protocol (and the event loop) as base64. Any other request is refused.
      dir = await mkdtemp(path.join(tmpdir(), 'demoshare-guide-'));
      await writeFile(path.join(dir, 'guide.html'), job.html);
      await mkdir(path.join(dir, 'images'));
      for (const [name, file] of job.files) {
        if (!/^images\/[a-z0-9-]+\.png$/.test(name)) throw new Error(`unexpected guide file name ${name}`);
        await writeFile(path.join(dir, name), file.bytes);
      }
      await context.route(/^(?!file:)/, (route) => route.abort('blockedbyclient'));
      const page = await context.newPage();
      const work = (async () => {
        await page.goto(pathToFileURL(path.join(dir!, 'guide.html')).href, { waitUntil: 'load', timeout: options.timeoutMs });
        return page.pdf({
          format: 'A4',
          printBackground: true,
          preferCSSPageSize: true,
          outline: true,
          tagged: true,
          displayHeaderFooter: true,
          headerTemplate: '<span></span>',
          footerTemplate: footerTemplate(job.footer),
        });
      })();
      const budget = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const limit = `${Math.round(options.timeoutMs / 1000)} s`;
          reject(
            new AppError('payload_too_large', `The guide took longer than ${limit} to print: the limit is ${limit}; export fewer steps or as Markdown`, {
              details: [{ field: 'format', message: `pdf must print within ${limit}` }],
            }),
          );
        }, options.timeoutMs);
      });
      work.catch(() => {});
      return await Promise.race([work, budget]);
    } finally {
      clearTimeout(timer);
      await context?.close().catch(() => {});
      if (dir) await rm(dir, { recursive: true, force: true }).catch(() => {});
      release();
    }
  }

  return {
    print,
    async close() {
      const open = browser;
      browser = null;
      if (open) await (await open.catch(() => null))?.close().catch(() => {});
    },
  };
}


function footerTemplate(title: string): string {
  const safe = title.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return (
    '<div style="width:100%;font-size:8pt;color:#6b7280;padding:0 18mm;display:flex;justify-content:space-between;' +
    'font-family:\'Liberation Sans\',Arial,sans-serif">' +
    `<span>${safe}</span><span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>`
  );
}
