/**
 * The generation eval: generates a demo from every site of the corpus (test/fixtures/corpus, each with an
 * expected.json) in each capture mode, scores the steps against what a good tour points at, and prints
 * a table per site and mode.
 *
 *   npm run eval:generation -- [--mode html|chromium|both] [--site a,b] [--verbose] [--check] [--markdown FILE]
 *
 * A step is good when its hotspot is on an expected element of its page (by selector in the snapshot in
 * HTML mode, by geometry on the page in Chromium mode) and its text names that element. --check exits 1
 * when a target of issue 13 is missed: 85% good steps, 5 good steps per site, no step without a hotspot,
 * pages grouped, Chromium under 10 s and HTML under 2 s per site.
 *
 * Bounded: one site server at a time on 127.0.0.1, one Chromium for generation and one for measuring.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { type Browser, chromium } from 'playwright-core';
import { AddressPolicy } from '../src/core/net/address-policy';
import { SafeFetch } from '../src/core/net/safe-fetch';
import { type CaptureMode, createGenerator, type GenerationResult } from '../src/generation';
import { CHROMIUM_BASE_ARGS } from '../src/generation/capture-chromium';
import { type CorpusSite, loadCorpus, pagePath, serveSite } from './corpus';
import { locateByGeometry, locateInSnapshot, measurePage, type PageBoxes } from './locate';
import { type SiteScore, scoreSite } from './score';

const { values: args } = parseArgs({
  options: {
    mode: { type: 'string', default: 'both' },
    site: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
    markdown: { type: 'string' },
  },
});

const TARGETS = { goodShare: 0.85, goodPerSite: 5, seconds: { chromium: 10, html: 2 } as Record<CaptureMode, number> };
const chromiumPath = process.env.CHROMIUM_PATH && process.env.CHROMIUM_PATH !== 'none' ? process.env.CHROMIUM_PATH : '/usr/bin/chromium';
const wanted = args.site?.split(',').map((s) => s.trim());
const sites = (await loadCorpus()).filter((s) => !wanted || wanted.includes(s.id));
if (sites.length === 0) throw new Error(`No corpus site matches ${args.site}`);
const modes: CaptureMode[] = args.mode === 'both' ? ['html', 'chromium'] : [args.mode as CaptureMode];
if (modes.includes('chromium') && !existsSync(chromiumPath)) throw new Error(`No browser at ${chromiumPath}: install chromium or run --mode html`);

interface Row {
  site: CorpusSite;
  mode: CaptureMode;
  seconds: number;
  score?: SiteScore;
  error?: string;
  result?: GenerationResult;
}

const net = new SafeFetch(AddressPolicy.fromList('127.0.0.1/32'));
let measurer = null as Browser | null;
const rows: Row[] = [];
try {
  for (const mode of modes) {
    const generator = createGenerator({ net, chromiumPath: mode === 'chromium' ? chromiumPath : null, timeoutMs: 60_000 });
    try {
      // The first Chromium job starts the browser: warm it on a site of its own so timings are per job.
      if (mode === 'chromium') await warm(generator, sites[0]!);
      for (const site of sites) {
        if (!site.expected.modes.includes(mode)) continue;
        rows.push(await evaluate(generator, site, mode));
        const row = rows.at(-1)!;
        if (args.verbose) printSteps(row);
      }
    } finally {
      await generator.close();
    }
  }
} finally {
  await measurer?.close();
  await net.close();
}

const table = render(rows);
console.log(table);
if (args.markdown) await writeFile(args.markdown, `${table}\n`);
const misses = check(rows);
for (const miss of misses) console.log(`target missed: ${miss}`);
if (args.check && misses.length > 0) process.exitCode = 1;

async function warm(generator: ReturnType<typeof createGenerator>, site: CorpusSite): Promise<void> {
  const server = await serveSite(site);
  try {
    await generator.generate({ url: `${server.origin}/`, maxPages: 0 }).catch(() => {});
  } finally {
    await server.close();
  }
}

async function evaluate(generator: ReturnType<typeof createGenerator>, site: CorpusSite, mode: CaptureMode): Promise<Row> {
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
      measurer ??= await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_BASE_ARGS });
      const boxes = new Map<string, PageBoxes>();
      for (const step of result.steps) {
        const path = pagePath(step.pageUrl);
        if (!boxes.has(path)) boxes.set(path, await measurePage(measurer, step.pageUrl, places.filter((p) => p.page === path)));
      }
      placements = result.steps.map((step) => locateByGeometry(step, boxes.get(pagePath(step.pageUrl))!));
    }
    return { site, mode, seconds, score: scoreSite(result, site.expected, placements), result };
  } finally {
    await server.close();
  }
}

function printSteps(row: Row): void {
  console.log(`\n${row.site.id} (${row.mode}), ${row.seconds.toFixed(1)} s, pages: ${row.result?.pages.map(pagePath).join(' ') ?? '-'}`);
  if (row.error) console.log(`  failed: ${row.error}`);
  for (const step of row.score?.steps ?? []) {
    const mark = step.verdict === 'good' ? '✓' : '✗';
    console.log(`  ${mark} ${String(step.index + 1).padStart(2)} ${step.page.padEnd(22)} ${step.title.slice(0, 50).padEnd(50)} ${step.verdict}: ${step.note}`);
  }
}

function render(all: Row[]): string {
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
  return lines.join('\n');
}

function check(all: Row[]): string[] {
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
      }
      if (row.seconds > TARGETS.seconds[mode]) misses.push(`${where}: ${row.seconds.toFixed(1)} s (target ${TARGETS.seconds[mode]} s)`);
    }
  }
  return misses;
}

function pct(part: number, whole: number): string {
  return whole === 0 ? '-' : `${Math.round((100 * part) / whole)}%`;
}
