// `demoshare demos check ID`: run a stale-demo check on an instance over its HTTP API and exit non-zero on drift, for a product team's CI.
import { parseArgs } from 'node:util';
import { parseDuration } from '../core/time';
import { ApiError, apiClientFrom } from './api-client';

type Out = { stdout: (s: string) => void; stderr: (s: string) => void };

export const DEMOS_CHECK_USAGE = `Usage: demoshare demos check ID [--no-wait] [--timeout 5m] [--image-threshold 0.01] [--box-threshold 8] [--json]

Captures the demo's pages again and compares each step with what it was made from (docs/stale-check.md);
waits for the result and prints one line per step. --no-wait starts the check and prints its id only.
--url URL (or DEMOSHARE_URL) and --token TOKEN (or DEMOSHARE_TOKEN), an API key with demos:write.
Exit status: 0 every step matches, 1 drift (a step changed, missing or unreachable), 2 error (wrong usage,
the instance refused or could not run the check, or --timeout passed).`;

/** Exit statuses: CI tells drift from a broken pipeline. */
export const EXIT_CLEAN = 0;
export const EXIT_DRIFT = 1;
export const EXIT_ERROR = 2;

interface StepLine {
  number: number;
  status: string;
  reasons: string[];
  page_url: string;
  detail: string;
}
interface Check {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  drift: boolean | null;
  error: string | null;
  summary: { checked: number; ok: number; changed: number; missing: number; unreachable: number };
  steps: StepLine[];
}

/**
 * Runs `demos check`; returns the exit status. `pollMs` is how often the check is read until it ends.
 *
 * @example
 * await demosCheckCommand(['demo_01j…', '--url', 'https://demos.example.com'], { DEMOSHARE_TOKEN: 'dsk_…' }, console); // 0, 1 or 2
 */
export async function demosCheckCommand(args: string[], env: NodeJS.ProcessEnv, out: Out, pollMs = 1000): Promise<number> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(args);
  } catch (error) {
    out.stderr(`${(error as Error).message}\n\n${DEMOS_CHECK_USAGE}`);
    return EXIT_ERROR;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out.stdout(DEMOS_CHECK_USAGE);
    return EXIT_CLEAN;
  }
  if (positionals.length !== 1) {
    out.stderr(`Give one demo id.\n\n${DEMOS_CHECK_USAGE}`);
    return EXIT_ERROR;
  }
  const api = apiClientFrom(values, { ...env, DEMOSHARE_TOKEN: env.DEMOSHARE_TOKEN ?? env.DEMOSHARE_API_KEY });
  if (typeof api === 'string') {
    out.stderr(api);
    return EXIT_ERROR;
  }
  const body: Record<string, number> = {};
  if (values['image-threshold'] !== undefined) body.image_threshold = Number(values['image-threshold']);
  if (values['box-threshold'] !== undefined) body.box_threshold_px = Number(values['box-threshold']);
  let timeoutMs: number;
  try {
    timeoutMs = parseDuration(values.timeout ?? '5m');
  } catch {
    out.stderr(`--timeout ${values.timeout}: give a duration such as 90s or 5m.`);
    return EXIT_ERROR;
  }

  const demoPath = `/demos/${encodeURIComponent(positionals[0]!)}/checks`;
  try {
    const bytes = new TextEncoder().encode(JSON.stringify(body));
    let check = (await api.json<{ data: Check }>('POST', demoPath, { bytes, type: 'application/json' })).data;
    if (values['no-wait']) {
      out.stdout(values.json ? JSON.stringify(check) : `Check ${check.id} ${check.status}.`);
      return EXIT_CLEAN;
    }
    const until = Date.now() + timeoutMs;
    while (check.status === 'queued' || check.status === 'running') {
      if (Date.now() > until) {
        out.stderr(`Check ${check.id} did not finish within ${values.timeout ?? '5m'} (still ${check.status}).`);
        return EXIT_ERROR;
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      check = (await api.json<{ data: Check }>('GET', `${demoPath}/${check.id}`)).data;
    }
    if (values.json) out.stdout(JSON.stringify(check));
    if (check.status === 'failed') {
      out.stderr(`Check ${check.id} failed: ${check.error ?? 'no reason given'}`);
      return EXIT_ERROR;
    }
    if (!values.json) out.stdout(table(check));
    return check.drift ? EXIT_DRIFT : EXIT_CLEAN;
  } catch (error) {
    out.stderr(error instanceof ApiError ? error.describe() : `Error: ${(error as Error).message}`);
    return EXIT_ERROR;
  }
}

function parseOptions(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      wait: { type: 'boolean' },
      'no-wait': { type: 'boolean' },
      timeout: { type: 'string' },
      'image-threshold': { type: 'string' },
      'box-threshold': { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
}

/** One line per step, then the verdict. */
export function table(check: Check): string {
  const rows = check.steps.map((s) => [String(s.number), s.status, s.reasons.join(', ') || '-', s.page_url]);
  const head = ['STEP', 'STATUS', 'REASONS', 'PAGE'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  const { summary: s } = check;
  const verdict = check.drift
    ? `Drift: ${s.changed} changed, ${s.missing} missing, ${s.unreachable} unreachable of ${s.checked} steps (check ${check.id}).`
    : `No drift: ${s.checked} step${s.checked === 1 ? '' : 's'} match their pages (check ${check.id}).`;
  return [line(head), ...rows.map(line), '', verdict].join('\n');
}
