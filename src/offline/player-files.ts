// The built player (dist/player) that offline bundles carry inline, read once per build of it.
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sha256Hex } from '../core/crypto';
import { AppError } from '../core/errors';

const PLAYER_ROOT = fileURLToPath(new URL('../../dist/player', import.meta.url));

export interface PlayerBuild {
  js: string;
  css: string;
  /** Of both files: a new player build makes new bundles. */
  digest: string;
}

/**
 * The player's script and styles as built by `npm run build:player`, re-read when the files change (their
 * modification times), so a rebuilt player goes into the next bundle without a restart. 503 when the player
 * is not built: the same condition that makes the share pages say so.
 *
 * @example
 * const files = createPlayerFiles();
 * const { js, css, digest } = await files.read();
 */
export function createPlayerFiles(root = PLAYER_ROOT) {
  let cached: { stamp: string; build: PlayerBuild } | undefined;
  async function read(): Promise<PlayerBuild> {
    const js = `${root}/player.js`;
    const css = `${root}/player.css`;
    let stamp: string;
    try {
      const [a, b] = await Promise.all([stat(js), stat(css)]);
      stamp = `${a.mtimeMs}:${a.size}:${b.mtimeMs}:${b.size}`;
    } catch {
      throw new AppError('unavailable', 'The player is not built on this server (npm run build:player), so no offline file can be made');
    }
    if (cached?.stamp !== stamp) {
      const [jsText, cssText] = await Promise.all([readFile(js, 'utf8'), readFile(css, 'utf8')]);
      cached = { stamp, build: { js: jsText, css: cssText, digest: sha256Hex(jsText + cssText).slice(0, 16) } };
    }
    return cached.build;
  }
  return { read };
}

export type PlayerFiles = ReturnType<typeof createPlayerFiles>;
