/**
 * The generation eval: generates a demo from every site of the corpus (test/fixtures/corpus, each with an
 * expected.json) in each capture mode, scores the steps against what a good tour points at, and prints
 * a table per site and mode.
 *
 *   npm run eval:generation -- [--mode html|chromium|both] [--site a,b] [--verbose] [--check] [--markdown FILE]
 *
 * A step is good when its hotspot is on an expected element of its page (by selector in the snapshot in
 * HTML mode, by geometry on the page in Chromium mode) and its text names that element. Every step's words
 * also go through the text rubric (eval/rubric.ts), a second table. --check exits 1 when a target is
 * missed: 85% good steps, 5 good steps per site, no step without a hotspot, pages grouped, Chromium under
 * 10 s and HTML under 2 s per site (issue 13), and every step passing the rubric's automatic checks (issue 28).
 *
 * Bounded: one site server at a time on 127.0.0.1, one Chromium for generation and one for measuring.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { CaptureMode } from '../src/generation';
import { findChromium } from '../src/generation/chromium';
import { loadCorpus, pagePath } from './corpus';
import { check, render, type Row, runEval } from './run';

const { values: args } = parseArgs({
  options: {
    mode: { type: 'string', default: 'both' },
    site: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
    markdown: { type: 'string' },
  },
});

const browser = findChromium();
const chromiumPath = browser.path;
const wanted = args.site?.split(',').map((s) => s.trim());
const sites = (await loadCorpus()).filter((s) => !wanted || wanted.includes(s.id));
if (sites.length === 0) throw new Error(`No corpus site matches ${args.site}`);
const modes: CaptureMode[] = args.mode === 'both' ? ['html', 'chromium'] : [args.mode as CaptureMode];
if (modes.includes('chromium') && !chromiumPath) throw new Error(`${browser.reason}: install chromium or run --mode html`);

const rows = await runEval({ sites, modes, chromiumPath, onRow: (row) => args.verbose && printSteps(row) });
const table = render(rows);
console.log(table);
if (args.markdown) await writeFile(args.markdown, `${table}\n`);
const misses = check(rows);
for (const miss of misses) console.log(`target missed: ${miss}`);
if (args.check && misses.length > 0) process.exitCode = 1;

function printSteps(row: Row): void {
  console.log(`\n${row.site.id} (${row.mode}), ${row.seconds.toFixed(1)} s, pages: ${row.result?.pages.map(pagePath).join(' ') ?? '-'}`);
  if (row.error) console.log(`  failed: ${row.error}`);
  for (const step of row.score?.steps ?? []) {
    const mark = step.verdict === 'good' ? '✓' : '✗';
    console.log(`  ${mark} ${String(step.index + 1).padStart(2)} ${step.page.padEnd(22)} ${step.title.slice(0, 50).padEnd(50)} ${step.verdict}: ${step.note}`);
    // The words, for the rubric's checklist (read them), and what its automatic checks found.
    const generated = row.result?.steps[step.index];
    if (generated) console.log(`       ${generated.description}\n       tooltip: ${generated.hotspots[0]?.tooltip ?? ''}`);
    for (const failure of row.rubric?.steps[step.index]?.failures ?? []) console.log(`       ✗ ${failure.check}: ${failure.detail}`);
  }
}
