import { type Browser, chromium } from 'playwright-core';
import { AddressPolicy } from '../src/core/net/address-policy';
import { SafeFetch } from '../src/core/net/safe-fetch';
import { type CaptureMode, createGenerator, type GenerationResult, type Generator } from '../src/generation';
import { CHROMIUM_BASE_ARGS } from '../src/generation/chromium';
import { type CorpusSite, pagePath, pageSource, serveSite } from './corpus';
import { locateByGeometry, locateInSnapshot, measurePage, type PageBoxes } from './locate';
import { pageWords, RUBRIC_CHECKLIST, RUBRIC_CHECKS, type RubricCheck, rubricSite, type SiteRubric, titleWords } from './rubric';
import { type SiteScore, scoreSite } from './score';
import { testDocumentPool } from '../test/helpers/documents';

/** Issue 13's targets: 85% good steps, 5 good steps per site, and seconds per site (5 pages) per mode. */
export const TARGETS = { goodShare: 0.85, goodPerSite: 5, seconds: { chromium: 10, html: 2 } as Record<CaptureMode, number> };

export interface Row {
  site: CorpusSite;
  mode: CaptureMode;
  seconds: number;
  score?: SiteScore;
  /** The text rubric of every step (eval/rubric.ts). */
  rubric?: SiteRubric;
  error?: string;
  result?: GenerationResult;
}

export interface EvalOptions {
  sites: CorpusSite[];
  modes: CaptureMode[];
  /** The browser (src/generation/chromium.ts finds it); null when only HTML mode is run. */
  chromiumPath: string | null;
  /** Called with each row as soon as it is scored. */
  onRow?: (row: Row) => void;
}

/** Generates a demo of every site in every mode it supports, and scores each against its expected.json. */
export async function runEval(options: EvalOptions): Promise<Row[]> {
  const net = new SafeFetch(AddressPolicy.fromList('127.0.0.1/32'));
  const documents = testDocumentPool();
  const state = { measurer: null as Browser | null };
  const rows: Row[] = [];
  try {
    for (const mode of options.modes) {
      const generator = createGenerator({ net, documents, chromiumPath: mode === 'chromium' ? options.chromiumPath : null, timeoutMs: 60_000 });
      try {
        // The first Chromium job starts the browser: warm it on a site of its own so timings are per job.
        if (mode === 'chromium') await warm(generator, options.sites[0]!);
        for (const site of options.sites) {
          if (!site.expected.modes.includes(mode)) continue;
          const row = await evaluate(generator, site, mode, async () => {
            if (!options.chromiumPath) throw new Error('measuring a page needs Chromium: none was given');
            state.measurer ??= await chromium.launch({ executablePath: options.chromiumPath, args: [...CHROMIUM_BASE_ARGS] });
            return state.measurer;
          });
          rows.push(row);
          options.onRow?.(row);
        }
      } finally {
        await generator.close();
      }
    }
  } finally {
    await state.measurer?.close();
    await net.close();
    await documents.close();
  }
  return rows;
}

async function warm(generator: Generator, site: CorpusSite): Promise<void> {
  const server = await serveSite(site);
  try {
    await generator.generate({ url: `${server.origin}/`, maxPages: 0 }).catch(() => {});
  } finally {
    await server.close();
  }
}

async function evaluate(generator: Generator, site: CorpusSite, mode: CaptureMode, measurer: () => Promise<Browser>): Promise<Row> {
  const server = await serveSite(site);
  try {
    const started = performance.now();
    let result: GenerationResult;
    try {
      result = await generator.generate({ url: `${server.origin}/` });
    } catch (error) {
      return { site, mode, seconds: (performance.now() - started) / 1000, error: (error as Error).message };
    }
    const seconds = (performance.now() - started) / 1000;
    if (result.captureMode !== mode) return { site, mode, seconds, error: `captured in ${result.captureMode} mode: ${result.warnings.join(' ')}` };
    const places = [...site.expected.targets, ...site.expected.avoid];
    let placements: ReturnType<typeof locateInSnapshot>[];
    if (mode === 'html') placements = result.steps.map((step) => locateInSnapshot(step, places));
    else {
      const browser = await measurer();
      const boxes = new Map<string, PageBoxes>();
      for (const step of result.steps) {
        const path = pagePath(step.pageUrl);
        if (!boxes.has(path)) boxes.set(path, await measurePage(browser, step.pageUrl, places.filter((p) => p.page === path)));
      }
      placements = result.steps.map((step) => locateByGeometry(step, boxes.get(pagePath(step.pageUrl))!));
    }
    const score = scoreSite(result, site.expected, placements);
    const pages = new Map<string, ReturnType<typeof pageWords>>();
    const sources = new Map<string, string>();
    for (const path of new Set([...result.pages, ...result.steps.map((step) => step.pageUrl)].map(pagePath))) sources.set(path, await pageSource(site, path));
    // What the capture saw counts as the page too: in Chromium mode its snapshot holds the text scripts drew
    // (a chart's figures), which the page's source does not.
    for (const step of result.steps) {
      const path = pagePath(step.pageUrl);
      if (step.html) sources.set(path, `${sources.get(path) ?? ''}\n${step.html}`);
    }
    for (const [path, source] of sources) pages.set(path, pageWords(source));
    return { site, mode, seconds, score, rubric: rubricSite(result, site.expected, score, pages, titleWords([...sources.values()])), result };
  } finally {
    await server.close();
  }
}

/** The table per site and mode, with a total row per mode, in Markdown. */
export function render(all: Row[]): string {
  const modes = [...new Set(all.map((r) => r.mode))];
  const lines = [
    '| site | mode | steps | good | good % | no hotspot | avoided | grouped | key targets | seconds |',
    '|---|---|--:|--:|--:|--:|--:|:-:|--:|--:|',
  ];
  for (const row of all) {
    const s = row.score;
    if (!s) {
      lines.push(`| ${row.site.id} | ${row.mode} | failed: ${row.error} | | | | | | | ${row.seconds.toFixed(1)} |`);
      continue;
    }
    const n = s.steps.length;
    lines.push(
      `| ${row.site.id} | ${row.mode} | ${n} | ${s.good} | ${pct(s.good, n)} | ${s.missingHotspots} | ${s.avoided} | ${s.grouped ? 'yes' : 'no'} | ${s.keyHit}/${s.keyTotal} | ${row.seconds.toFixed(1)} |`,
    );
  }
  for (const mode of modes) {
    const scored = all.filter((r) => r.mode === mode && r.score).map((r) => r.score!);
    const steps = scored.reduce((sum, s) => sum + s.steps.length, 0);
    const good = scored.reduce((sum, s) => sum + s.good, 0);
    const key = scored.reduce((sum, s) => [sum[0]! + s.keyHit, sum[1]! + s.keyTotal], [0, 0]);
    const slowest = Math.max(0, ...all.filter((r) => r.mode === mode).map((r) => r.seconds));
    lines.push(
      `| **all** | ${mode} | ${steps} | ${good} | ${pct(good, steps)} | ${scored.reduce((a, s) => a + s.missingHotspots, 0)} | ${scored.reduce((a, s) => a + s.avoided, 0)} | ${scored.every((s) => s.grouped) ? 'yes' : 'no'} | ${key[0]}/${key[1]} | max ${slowest.toFixed(1)} |`,
    );
  }
  return `${lines.join('\n')}\n\n${renderRubric(all)}`;
}

const CHECKS = Object.keys(RUBRIC_CHECKS) as RubricCheck[];

/**
 * The text rubric per site and mode: steps passing every automatic check, the steps failing each, and the
 * checklist a reviewer ticks by reading the steps (--verbose prints them).
 */
export function renderRubric(all: Row[]): string {
  const lines = [
    `| site | mode | steps | clean | clean % | ${CHECKS.join(' | ')} | checklist (by reading) |`,
    `|---|---|--:|--:|--:|${CHECKS.map(() => '--:').join('|')}|---|`,
  ];
  const checklist = RUBRIC_CHECKLIST.map((item) => `☐ ${item}`).join(' ');
  for (const row of all) {
    if (!row.rubric) continue;
    const r = row.rubric;
    const n = r.steps.length;
    lines.push(`| ${row.site.id} | ${row.mode} | ${n} | ${r.clean} | ${pct(r.clean, n)} | ${CHECKS.map((c) => r.failing[c]).join(' | ')} | ${checklist} |`);
  }
  for (const mode of [...new Set(all.map((r) => r.mode))]) {
    const scored = all.filter((r) => r.mode === mode && r.rubric).map((r) => r.rubric!);
    const steps = scored.reduce((sum, r) => sum + r.steps.length, 0);
    const clean = scored.reduce((sum, r) => sum + r.clean, 0);
    lines.push(`| **all** | ${mode} | ${steps} | ${clean} | ${pct(clean, steps)} | ${CHECKS.map((c) => scored.reduce((sum, r) => sum + r.failing[c], 0)).join(' | ')} | |`);
  }
  return lines.join('\n');
}

/** The targets a set of rows misses, in words; empty when all are met. */
export function check(all: Row[]): string[] {
  const modes = [...new Set(all.map((r) => r.mode))];
  const misses: string[] = [];
  for (const mode of modes) {
    const mine = all.filter((r) => r.mode === mode);
    const steps = mine.reduce((sum, r) => sum + (r.score?.steps.length ?? 0), 0);
    const good = mine.reduce((sum, r) => sum + (r.score?.good ?? 0), 0);
    if (steps === 0 || good / steps < TARGETS.goodShare) misses.push(`${mode}: ${pct(good, steps)} good steps (target ${TARGETS.goodShare * 100}%)`);
    for (const row of mine) {
      const where = `${row.site.id} (${mode})`;
      if (!row.score) misses.push(`${where}: ${row.error}`);
      else {
        if (row.score.good < TARGETS.goodPerSite) misses.push(`${where}: ${row.score.good} good steps (target ${TARGETS.goodPerSite})`);
        if (row.score.missingHotspots > 0) misses.push(`${where}: ${row.score.missingHotspots} steps without a hotspot`);
        if (!row.score.grouped) misses.push(`${where}: a page's steps are not together`);
        for (const step of row.rubric?.steps ?? []) {
          for (const failure of step.failures) misses.push(`${where}: step ${step.index + 1} fails the text rubric (${failure.check}): ${failure.detail}`);
        }
      }
      if (row.seconds > TARGETS.seconds[mode]) misses.push(`${where}: ${row.seconds.toFixed(1)} s (target ${TARGETS.seconds[mode]} s)`);
    }
  }
  return misses;
}

function pct(part: number, whole: number): string {
  return whole === 0 ? '-' : `${Math.round((100 * part) / whole)}%`;
}
