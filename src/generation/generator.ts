// The generation pipeline (capture, plan, write, build) assembled from parts passed in, so that tests can swap the browser and the AI writer.
import type { SafeFetch } from '../core/net/safe-fetch';
import { BlockedUrlError } from '../core/net/safe-fetch';
import { type AiSettings, type AiTour, AiWriterError, type AiWriterInput, createAiWriter } from './ai-writer';
import { CaptureError } from './capture-error';
import { captureHtml } from './capture-html';
import type { CapturedElement, CapturedPage, CaptureMode, GenerationOptions, GenerationResult } from './generation.types';
import { pageKey, pickLinks } from './link-picker';
import type { SnapshotWorkers } from './snapshot';
import { buildStep } from './step-builder';
import { candidateSteps, elementsToShow, planSteps } from './step-planner';
import { writeSteps } from './step-writer';

/** The few logger methods generation uses; a pino or Fastify logger fits. */
export interface GenerationLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface GeneratorDeps {
  net: SafeFetch;
  /** The document workers that parse and clean each page (the process's one pool; the caller closes it). */
  documents: SnapshotWorkers;
  /** A Chromium or Chrome binary; null or absent captures HTML only. */
  chromiumPath?: string | null;
  ai?: AiSettings | null;
  log?: GenerationLog;
  /** Defaults for options a job leaves out (GENERATION_MAX_PAGES, GENERATION_TIMEOUT). */
  maxPages?: number;
  timeoutMs?: number;
}

export interface Generator {
  /** Captures `options.url` (and up to maxPages same-origin pages) and writes a tour of it. Throws GenerationError. */
  generate(options: GenerationOptions): Promise<GenerationResult>;
  /** Closes the browser, if one was started. */
  close(): Promise<void>;
}

/** What the demos module shows as `generation.error`: the message is written for the demo's owner. */
export class GenerationError extends Error {
  override name = 'GenerationError';
}

/** One way of turning addresses into captured pages; a session serves the pages of one generation. */
export interface Capturer {
  readonly mode: CaptureMode;
  /** Throws CapturerUnavailableError when this way cannot work at all (the browser does not start). */
  open(deadline: number): Promise<CaptureSession>;
  close(): Promise<void>;
}

export interface CaptureSession {
  /**
   * Captures one page. `show` names the elements a tour of the page may point at (from its facts, before
   * any screenshot): a capturer with screenshots takes one where each is in view, measured there.
   */
  capture(url: string, show: (page: CapturedPage) => CapturedElement[]): Promise<CapturedPage>;
  close(): Promise<void>;
}

/** Raised by a capturer that cannot work at all (a browser that does not start): generation falls back to HTML. */
export class CapturerUnavailableError extends Error {
  override name = 'CapturerUnavailableError';
}

export type AiWriter = (input: AiWriterInput) => Promise<AiTour>;

export interface GeneratorParts {
  browser: Capturer | null;
  aiWriter: AiWriter | null;
}

const MIN_TIME_FOR_A_PAGE_MS = 2_000;

/** Builds a generator from its parts; `createGenerator` (index.ts) wires the real ones. */
export function assembleGenerator(deps: GeneratorDeps, parts: GeneratorParts): Generator {
  const html: Capturer = {
    mode: 'html',
    open: async (deadline) => ({ capture: (url) => captureHtml(deps, url, deadline), close: async () => {} }),
    close: async () => {},
  };

  async function generate(options: GenerationOptions): Promise<GenerationResult> {
    const aiWriter = options.ai ? createAiWriter(options.ai) : parts.aiWriter;
    const budget = options.timeoutMs ?? deps.timeoutMs ?? 60_000;
    // Capture stops early enough to leave the writers their share; the caller's deadline is the whole budget.
    const end = Date.now() + budget;
    const deadline = end - (aiWriter ? budget / 3 : Math.min(1_000, budget / 10));
    const maxPages = options.maxPages ?? deps.maxPages ?? 4;
    const start = await deps.net.check(options.url).catch((error: unknown) => {
      throw new GenerationError(describe(error));
    });
    const warnings: string[] = [];
    if (options.captureMode === 'chromium' && !parts.browser) {
      throw new GenerationError(
        'This server has no browser to capture pages with: choose the HTML capture, or ask whoever runs Demoshare to install Chromium (CHROMIUM_PATH).',
      );
    }
    let capturer = options.captureMode === 'html' ? html : (parts.browser ?? html);
    let session: CaptureSession;
    try {
      session = await capturer.open(deadline);
    } catch (error) {
      if (!(error instanceof CapturerUnavailableError)) throw new GenerationError(`Could not capture ${start}: ${describe(error)}`);
      deps.log?.warn({ err: error }, 'generation: the browser is unavailable, capturing HTML instead');
      warnings.push(`The browser could not start (${error.message}); the page was captured as HTML instead, without screenshots.`);
      capturer = html;
      session = await capturer.open(deadline);
    }

    const pages: CapturedPage[] = [];
    try {
      const first = await session.capture(start.toString(), (page) => elementsToShow(page, 0)).catch((error: unknown) => {
        throw new GenerationError(`Could not capture ${start}: ${describe(error)}`);
      });
      pages.push(first);
      const seen = new Set([pageKey(first.url), pageKey(start.toString())]);
      for (const link of pickLinks(first, seen, maxPages)) {
        if (deadline - Date.now() < MIN_TIME_FOR_A_PAGE_MS) {
          warnings.push('Stopped following links: the time limit for generation was reached.');
          break;
        }
        try {
          const page = await session.capture(link, (captured) => elementsToShow(captured, pages.length, first));
          if (seen.has(pageKey(page.url))) continue;
          seen.add(pageKey(page.url));
          pages.push(page);
        } catch (error) {
          warnings.push(`Skipped ${link}: ${describe(error)}`);
        }
      }
    } finally {
      await session.close();
    }
    const first = pages[0]!;

    let plan = planSteps(pages);
    if (plan.length === 0) throw new GenerationError(`Found no headings, buttons or forms to build steps from on ${first.url}.`);
    let copies = writeSteps(plan, pages);
    let writer: GenerationResult['writer'] = 'builtin';
    if (aiWriter) {
      try {
        // The model chooses from the same candidates as the rules (the rules' choice suggested), and
        // the rules' plan and words stay when it fails.
        const candidates = candidateSteps(pages);
        const tour = await aiWriter({ pages, candidates, drafts: writeSteps(candidates, pages), suggested: plan, deadline: end });
        plan = tour.plan;
        copies = tour.copies;
        writer = 'ai';
      } catch (error) {
        deps.log?.warn({ err: error }, 'generation: the AI writer failed, using the built-in writer');
        warnings.push(`The AI writer failed (${describe(error)}); the built-in writer wrote the steps.`);
      }
    }
    deps.log?.info({ url: first.url, pages: pages.length, steps: plan.length, mode: capturer.mode, writer }, 'generation: done');
    return {
      captureMode: capturer.mode,
      writer,
      title: first.title || plan[0]!.element.text,
      steps: plan.map((step, i) => buildStep(step, copies[i]!)),
      pages: pages.map((page) => page.url),
      warnings,
    };
  }

  return {
    generate,
    close: async () => {
      await parts.browser?.close();
    },
  };
}

/** An error in words for the demo's owner: no stack, no internal codes beyond what helps. */
export function describe(error: unknown): string {
  if (error instanceof BlockedUrlError || error instanceof CaptureError || error instanceof GenerationError || error instanceof AiWriterError) {
    return error.message;
  }
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'it took too long to answer';
    if (code === 'ECONNREFUSED') return 'the connection was refused';
    if (code === 'ENOTFOUND') return 'the host name does not resolve';
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof BlockedUrlError) return cause.message;
    return code ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}
