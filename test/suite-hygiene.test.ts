import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

function testFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

// A test whose whole body is a log line passes without checking anything: the report then counts a
// missing PostgreSQL or Redis as a success. Such tests belong behind skipIf, with the notice beside it.
const LOG_ONLY_TEST =
  /\b(?:it|test)(?:\.\w+\([^)]*\))?\(\s*(['"`])[^'"`]*\1\s*,\s*(?:async\s*)?\(\)\s*=>\s*\{\s*console\.\w+\([^;]*\);?\s*\}\s*\)/g;

describe('the test suite itself', () => {
  it('has no placeholder test that only logs (a test that did not run is reported as skipped)', () => {
    const offenders = [...testFiles('test'), ...testFiles('src')].flatMap((file) =>
      [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(LOG_ONLY_TEST)].map((m) => `${file}: ${m[0].split('\n')[0]}`),
    );
    expect(offenders).toEqual([]);
  });
});
