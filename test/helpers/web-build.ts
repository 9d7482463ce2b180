import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Bundle {
  /** A file the build writes last-ish; its age says whether the bundle is fresh. */
  output: string;
  sources: string[];
  config: string;
  lock: string;
}

const WEB: Bundle = {
  output: join(ROOT, 'dist/web/index.html'),
  // The web app also bundles the scope and role tables from the server.
  sources: [join(ROOT, 'web'), join(ROOT, 'src/auth/permissions.ts')],
  config: 'web/vite.config.ts',
  lock: join(ROOT, 'dist/.web-build-lock'),
};

const PLAYER: Bundle = {
  output: join(ROOT, 'dist/player/player.js'),
  sources: [join(ROOT, 'player')],
  config: 'player/vite.config.ts',
  lock: join(ROOT, 'dist/.player-build-lock'),
};

const HUB: Bundle = {
  output: join(ROOT, 'dist/hub/hub.js'),
  // The hub page reuses the player's brand and DOM helpers.
  sources: [join(ROOT, 'hub'), join(ROOT, 'player/src')],
  config: 'hub/vite.config.ts',
  lock: join(ROOT, 'dist/.hub-build-lock'),
};

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function isFresh(bundle: Bundle): boolean {
  try {
    return statSync(bundle.output).mtimeMs >= Math.max(...bundle.sources.map(newestMtime));
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Builds a bundle when it is missing or older than its sources, so browser tests never run against a
 * stale one. A directory lock keeps parallel test files from building into the same folder at once.
 */
async function ensureBuilt(bundle: Bundle): Promise<void> {
  if (isFresh(bundle)) return;
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    try {
      mkdirSync(bundle.lock);
      break;
    } catch {
      // A stale lock from a killed run would block forever; a build takes seconds, not minutes.
      if (attempt > 600) rmdirSync(bundle.lock);
      await sleep(200);
    }
  }
  try {
    if (isFresh(bundle)) return;
    execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', bundle.config, '--logLevel', 'warn'], {
      cwd: ROOT,
      stdio: 'inherit',
      // Vitest sets NODE_ENV=test, with which Vite bundles React's development build (three times the size):
      // the tests and benches measure and drive what ships.
      env: { ...process.env, NODE_ENV: 'production' },
    });
  } finally {
    rmdirSync(bundle.lock);
  }
}

/** dist/web: the dashboard. */
export const ensureWebBuilt = () => ensureBuilt(WEB);

/** dist/player: the viewer player that /s/:token and /embed/:token load. */
export const ensurePlayerBuilt = () => ensureBuilt(PLAYER);

/** dist/hub: the demo hub page that /h/:token and /embed/h/:token load. */
export const ensureHubBuilt = () => ensureBuilt(HUB);
