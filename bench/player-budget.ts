import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

/** The viewer player's JavaScript may weigh at most this, gzipped (issue 29): it loads before every demo. */
export const PLAYER_JS_BUDGET_BYTES = 25 * 1024;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The built player's files (dist/player), raw and gzipped at level 9 as a compressing server sends them. */
export function playerSizes(dir = 'dist/player') {
  return ['player.js', 'player.css'].map((file) => {
    const bytes = readFileSync(`${dir}/${file}`);
    return { file, bytes: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length };
  });
}

/** One line per file, and the script against its budget. */
export function playerSizeReport(dir = 'dist/player'): string {
  const sizes = playerSizes(dir);
  const js = sizes.find((s) => s.file === 'player.js')!;
  const verdict = js.gzipped <= PLAYER_JS_BUDGET_BYTES ? 'within' : 'OVER';
  return [
    ...sizes.map((s) => `${dir}/${s.file}: ${kb(s.bytes)} raw, ${kb(s.gzipped)} gzipped`),
    `Player JavaScript: ${kb(js.gzipped)} gzipped, ${verdict} its budget of ${kb(PLAYER_JS_BUDGET_BYTES)}.`,
  ].join('\n');
}
