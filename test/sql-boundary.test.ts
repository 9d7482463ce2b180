import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// SQL lives in repositories (docs/architecture.md). This check reads src/ as text and fails when a file
// outside the places below builds or runs a query, so a shortcut cannot creep back in unnoticed.

const SRC = fileURLToPath(new URL('../src', import.meta.url));

/** Files that may hold SQL besides `*.repo.ts` and `src/db/**`, each with the reason it may. */
const JUSTIFIED: Record<string, string> = {
  // pg-boss's statements, run in the caller's transaction: queue plumbing, not domain data.
  'jobs/queue.ts': 'the job queue adapter',
  // NOTIFY/LISTEN on the bus's own connections: message transport, no table is read or written.
  'core/bus.ts': 'the PostgreSQL transport of the message bus',
};

interface Finding {
  file: string;
  line: number;
  text: string;
  rule: string;
}

const QUERY_CALL = /\b(db|tx|trx|executor)\s*\.\s*(select|selectDistinct|insert|update|delete|execute|with|\$count)\s*\(/g;
const RELATIONAL_QUERY = /\b(db|tx|trx|executor)\s*\.\s*query\s*\.\s*\w+\s*\.\s*find(Many|First)\s*\(/g;
const RAW_SQL_CALL = /\.\s*(executeSql|query)\s*\(\s*[`'"]\s*(select|insert|update|delete|with|lock|listen|notify)\b/gi;
const DRIZZLE_IMPORT = /^\s*import\s+(type\s+)?([^;]*?)\s+from\s+['"](drizzle-orm(?:\/[^'"]*)?)['"]/gm;

/** Comments out, line numbers kept: prose may mention `db.select(` freely. */
function stripComments(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, ' '))
    .replace(/(^|\s)\/\/.*$/gm, '$1');
}

function lineOf(source: string, index: number): number {
  return source.slice(0, index).split('\n').length;
}

/** Whether an import from drizzle-orm is allowed in this file: types anywhere, column helpers in table files. */
function importAllowed(file: string, typeOnly: boolean, names: string, from: string): boolean {
  if (typeOnly) return true;
  if (!file.endsWith('.tables.ts')) return false;
  if (from === 'drizzle-orm/pg-core') return true;
  // Table files use sql`...` for defaults, checks and partial indexes; operators have no business there.
  const imported = names
    .replace(/[{}]/g, '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  return from === 'drizzle-orm' && imported.every((n) => n === 'sql' || n.startsWith('type '));
}

/** Every place in `source` (the file at `file`, relative to src/) that runs or builds SQL outside a repository. */
function findSql(file: string, source: string): Finding[] {
  if (file.endsWith('.repo.ts') || file.startsWith('db/') || file in JUSTIFIED) return [];
  const code = stripComments(source);
  const findings: Finding[] = [];
  const report = (index: number, text: string, rule: string) =>
    findings.push({ file, line: lineOf(code, index), text: text.replace(/\s+/g, ' ').trim(), rule });
  for (const m of code.matchAll(DRIZZLE_IMPORT)) {
    if (!importAllowed(file, Boolean(m[1]), m[2]!, m[3]!)) report(m.index!, m[0], 'imports drizzle-orm query helpers');
  }
  for (const pattern of [QUERY_CALL, RELATIONAL_QUERY]) {
    for (const m of code.matchAll(pattern)) report(m.index!, m[0], 'runs a query on a db/tx');
  }
  for (const m of code.matchAll(RAW_SQL_CALL)) report(m.index!, m[0], 'runs raw SQL');
  return findings;
}

function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
}

describe('SQL only in repositories', () => {
  it('finds no query outside *.repo.ts, src/db and the justified files', () => {
    const files = sourceFiles();
    // A wrong root would make this pass by scanning nothing.
    expect(files.length).toBeGreaterThan(50);
    const findings = files.flatMap((f) => findSql(f, readFileSync(path.join(SRC, f), 'utf8')));
    const listing = findings.map((f) => `src/${f.file}:${f.line} ${f.rule}: ${f.text}`);
    expect(listing, 'move these queries into the domain repository (<domain>.repo.ts)').toEqual([]);
  });

  it('every justified exception still exists', () => {
    const files = new Set(sourceFiles());
    expect(Object.keys(JUSTIFIED).filter((f) => !files.has(f))).toEqual([]);
  });

  // The detector itself, on the shapes SQL has taken in this codebase.
  it.each([
    ["import { eq, lt } from 'drizzle-orm';", 'imports drizzle-orm query helpers'],
    ["import { sql } from 'drizzle-orm';", 'imports drizzle-orm query helpers'],
    ['await ctx.database.db.delete(sessions).where(x);', 'runs a query on a db/tx'],
    ['const rows = await tx\n    .select()\n    .from(events);', 'runs a query on a db/tx'],
    ['await this.deps.database.db\n  .insert(webhookAttempts)', 'runs a query on a db/tx'],
    ['await tx.execute(q);', 'runs a query on a db/tx'],
    ['await db.query.demos.findMany({});', 'runs a query on a db/tx'],
    ["await database.executeSql('select 1');", 'runs raw SQL'],
    ["await pool.query('update demos set x = 1');", 'runs raw SQL'],
  ])('flags %j', (snippet, rule) => {
    expect(findSql('demos/demos.service.ts', snippet).map((f) => f.rule)).toContain(rule);
  });

  it.each([
    ["import type { SQL } from 'drizzle-orm';", 'demos/demos.service.ts'],
    ['cache.delete(key); hmac.update(body); app.delete(path, opts, handler);', 'demos/demos.service.ts'],
    ['await demos.update(caller, id, body); // db.select() in a comment', 'demos/demos.routes.ts'],
    ["import { sql } from 'drizzle-orm';\nimport { index, pgTable } from 'drizzle-orm/pg-core';", 'demos/demos.tables.ts'],
    ["import { and, eq } from 'drizzle-orm';\nawait db.select().from(demos).where(eq(demos.id, id));", 'demos/demos.repo.ts'],
  ])('lets %j pass in %s', (snippet, file) => {
    expect(findSql(file, snippet)).toEqual([]);
  });

  it('flags query operators in a table file', () => {
    expect(findSql('demos/demos.tables.ts', "import { eq, sql } from 'drizzle-orm';")).toHaveLength(1);
  });
});
