/**
 * Snapshot CSS cleaning (src/generation/snapshot-css.ts) on real stylesheets: the time to clean each
 * (tokenize, judge, write back, clean again to check), beside the time of tokenizing it once, which is
 * the floor. Median of `--runs` after two warm-up runs, on one thread.
 *
 *   node bin/run-ts.js bench/snapshot-css.ts [--runs 15]
 *
 * The stylesheets are ones installed with the project's dependencies (swagger-ui's, Playwright's report).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { tokenize } from '@csstools/css-tokenizer';
import { cleanStylesheet } from '../src/generation/snapshot-css';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '15' } }, allowPositionals: true });
const runs = Number(args.runs);
const require = createRequire(import.meta.url);
const sheets = [
  join(dirname(require.resolve('@fastify/swagger-ui/package.json')), 'static/swagger-ui.css'),
  join(dirname(require.resolve('playwright-core/package.json')), 'lib/vite/htmlReport/report.css'),
];

function median(fn: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const start = performance.now();
    fn();
    if (i >= 2) times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const mayReach = (url: string) => !/^https?:\/\/(127\.|10\.|\[)/.test(url);
console.log('| stylesheet | size | tokenize once | clean | clean MB/s |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const path of sheets) {
  const css = readFileSync(path, 'utf8');
  const tokens = median(() => tokenize({ css }));
  const clean = median(() => cleanStylesheet(css, 'https://site.example/css/main.css', mayReach));
  const kb = Buffer.byteLength(css) / 1024;
  console.log(
    `| ${path.split('/').pop()} | ${kb.toFixed(0)} KB | ${tokens.toFixed(1)} ms | ${clean.toFixed(1)} ms | ${(kb / 1024 / (clean / 1000)).toFixed(2)} |`,
  );
}
