import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Names the run's directory for every test process, which inherits it through the environment. */
export const RUN_DIR_VARIABLE = 'DEMOSHARE_TEST_RUN_DIR';

/**
 * vitest's global set-up: a directory for what the test processes of one run share (the PGlite template of
 * helpers/database.ts), removed when the run ends.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), 'demoshare-test-run-'));
  process.env[RUN_DIR_VARIABLE] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
