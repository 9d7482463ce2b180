// The one place that decides which Chromium this project runs and how it starts: the service's
// CHROMIUM_PATH setting (src/config.ts), the capturer, the browser tests, the benchmarks and the eval.
import { existsSync } from 'node:fs';

/** The CHROMIUM_PATH value that turns the browser off (HTML capture only, browser tests skipped). */
export const NO_CHROMIUM = 'none';

/** Where a Chromium or Chrome is usually installed on Linux, looked at in this order when CHROMIUM_PATH is unset. */
export const USUAL_CHROMIUM_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
] as const;

/**
 * How every Chromium of this project starts (capture, browser tests, benchmarks): headless and quiet,
 * without the sandbox a container has no namespaces for, and without the updates, sync and first-run
 * screens that would reach out or wait.
 *
 * @example
 * import { chromium } from 'playwright-core';
 * import { CHROMIUM_BASE_ARGS, findChromium } from './chromium';
 *
 * const found = findChromium();
 * if (found.path) await chromium.launch({ executablePath: found.path, args: [...CHROMIUM_BASE_ARGS, '--js-flags=--expose-gc'] });
 */
export const CHROMIUM_BASE_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/**
 * What {@link findChromium} found: the executable, or `null` with why (turned off, or nothing installed);
 * `error` is set only when CHROMIUM_PATH names a file that does not exist, which a caller should refuse
 * rather than silently run without a browser.
 */
export type ChromiumSearch = { path: string; reason?: undefined; error?: undefined } | { path: null; reason: string; error?: string };

/**
 * Finds the Chromium to run: CHROMIUM_PATH when set (`none` turns the browser off), else the first of
 * {@link USUAL_CHROMIUM_PATHS} that exists.
 *
 * @param setting - the CHROMIUM_PATH value; `process.env.CHROMIUM_PATH` when omitted (an empty string counts as unset).
 * @example
 * import { findChromium } from './chromium';
 *
 * findChromium('none'); // { path: null, reason: 'CHROMIUM_PATH=none' }
 * const found = findChromium();
 * if (!found.path) console.warn(`no browser: ${found.reason}`);
 */
export function findChromium(setting: string | undefined = process.env.CHROMIUM_PATH): ChromiumSearch {
  if (setting === NO_CHROMIUM) return { path: null, reason: `CHROMIUM_PATH=${NO_CHROMIUM}` };
  if (setting) {
    if (existsSync(setting)) return { path: setting };
    const error = `${setting} does not exist (give a Chromium or Chrome binary, or none to capture HTML only)`;
    return { path: null, reason: `no Chromium at ${setting}`, error };
  }
  const found = USUAL_CHROMIUM_PATHS.find((candidate) => existsSync(candidate));
  return found ? { path: found } : { path: null, reason: `no Chromium at ${USUAL_CHROMIUM_PATHS.join(', ')} (set CHROMIUM_PATH)` };
}
