// Captures a demo's source pages again with generation's capturers (Chromium where there is one, HTML otherwise), each page once, within one deadline.
import type { SafeFetch } from '../core/net/safe-fetch';
import { BlockedUrlError } from '../core/net/safe-fetch';
import type { DocumentPool } from '../document-tasks';
import { CaptureError } from '../generation/capture-error';
import { captureHtml } from '../generation/capture-html';
import type { CapturedElement, CapturedPage, CaptureMode } from '../generation/generation.types';
import type { Capturer, CaptureSession } from '../generation/generator';
import { CapturerUnavailableError } from '../generation/generator';
import { elementsToShow } from '../generation/step-planner';
import type { StepReason } from './staleness.tables';
import { PASSWORD_FIELD } from './target-query';

/** One source page as the check found it: captured, or why not. */
export type PageCapture =
  | { url: string; page: CapturedPage; loginWall: boolean }
  | { url: string; page: null; reason: StepReason; message: string };

export interface RecaptureDeps {
  net: SafeFetch;
  documents: Pick<DocumentPool, 'run'>;
  /** Generation's Chromium capturer, or null where the server has no browser. */
  browser: Capturer | null;
}

/** What to capture: each page's address and the selectors its steps point at. */
export interface PageWanted {
  url: string;
  selectors: Set<string>;
  /** The demo's start page: its tour shows the elements a first page offers (the same screenshots as at generation). */
  first: boolean;
}

/**
 * Captures each page once, in turn, in one browser context (so they share cookies as one visitor would,
 * and nothing more: a check never signs in). `mode` `chromium` needs the browser; `html` fetches the
 * markup only. Pages not reached before `deadline` come back as `timeout`.
 */
export async function recapturePages(deps: RecaptureDeps, pages: PageWanted[], mode: CaptureMode, deadline: number): Promise<{ mode: CaptureMode; pages: PageCapture[] }> {
  let session: CaptureSession;
  let used = mode;
  if (mode === 'chromium' && deps.browser) {
    try {
      session = await deps.browser.open(deadline);
    } catch (error) {
      if (!(error instanceof CapturerUnavailableError)) throw error;
      used = 'html';
      session = htmlSession(deps, deadline);
    }
  } else {
    used = 'html';
    session = htmlSession(deps, deadline);
  }
  const out: PageCapture[] = [];
  try {
    for (const wanted of pages) {
      if (Date.now() >= deadline) {
        out.push({ url: wanted.url, page: null, reason: 'timeout', message: 'The check ran out of time before this page.' });
        continue;
      }
      out.push(await captureOne(deps, session, wanted));
    }
  } finally {
    await session.close();
  }
  return { mode: used, pages: out };
}

function htmlSession(deps: RecaptureDeps, deadline: number): CaptureSession {
  return { capture: (url) => captureHtml(deps, url, deadline), close: async () => {} };
}

async function captureOne(deps: RecaptureDeps, session: CaptureSession, wanted: PageWanted): Promise<PageCapture> {
  try {
    await deps.net.check(wanted.url);
    // The screenshots a generation took of this page, and one where each target is: an unchanged page gives the same frames.
    const show = (page: CapturedPage): CapturedElement[] => {
      const offered = elementsToShow(page, wanted.first ? 0 : 1, page);
      const targets = page.elements.filter((e) => wanted.selectors.has(e.selector) && !offered.includes(e));
      return [...offered, ...targets];
    };
    const page = await session.capture(wanted.url, show);
    return { url: wanted.url, page, loginWall: await looksLikeSignIn(deps, wanted, page) };
  } catch (error) {
    return { url: wanted.url, page: null, ...failureOf(error) };
  }
}

/**
 * A sign-in form where the page was: the address led elsewhere (a redirect) to a page with a password
 * field, or the page itself now asks for a password and none of its steps' targets is there.
 */
async function looksLikeSignIn(deps: RecaptureDeps, wanted: PageWanted, page: CapturedPage): Promise<boolean> {
  if (!page.html) return false;
  const selectors = [PASSWORD_FIELD, ...wanted.selectors];
  const [password, ...targets] = await deps.documents.run('queryTargets', [page.html, selectors], { field: 'page_url', what: 'The captured page' });
  if (!password?.found) return false;
  const redirected = stripHash(page.url) !== stripHash(wanted.url);
  return redirected || (targets.length > 0 && targets.every((t) => !t.found));
}

const stripHash = (url: string) => url.replace(/#.*$/, '');

/** Why a page could not be captured, as a step reason and a sentence. */
export function failureOf(error: unknown): { reason: StepReason; message: string } {
  const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
  if (error instanceof BlockedUrlError) return { reason: 'blocked', message };
  if (error instanceof CaptureError) {
    const status = Number(/answered HTTP (\d{3})/.exec(message)?.[1] ?? 0);
    if (status === 401 || status === 403 || status === 407) return { reason: 'login_required', message: `${message}: the page asks for a sign-in` };
    if (status === 404 || status === 410) return { reason: 'not_found', message };
    if (status) return { reason: 'http_error', message };
    if (/timeout|time left|took too long/i.test(message)) return { reason: 'timeout', message };
    return { reason: 'unreachable', message };
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if ((error as Error | undefined)?.name === 'TimeoutError' || (error as Error | undefined)?.name === 'AbortError') {
    return { reason: 'timeout', message: 'the page took too long to answer' };
  }
  return { reason: 'unreachable', message: code ? `${message} (${code})` : message };
}
