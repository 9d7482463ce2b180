#!/usr/bin/env node
// Writes the generated sections of docs/architecture.md (domains, import directions, hot walks); --check fails when they differ.
//
// Each section sits between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`; the prose around them
// is the doc's own. Sources: the modules (src/*/*.module.ts: name, TSDoc, owns.tables, needs, reads), the
// tables files (pgTable names), the import graph of src/ (architecture-graph.mjs) and the walks of
// walk-count.mjs. `node scripts/architecture-doc.mjs` rewrites the doc; `--check` (scripts/test.mjs, CI)
// prints what differs and exits 1.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { modules, partEdges, partOf, ROOT, rel, sourceFiles, tablesOf } from './architecture-graph.mjs';
import { walk } from './walk-count.mjs';

const DOC = path.join(ROOT, 'docs', 'architecture.md');
/** The two requests the doc follows, and the most files and domains issue 27 allows each. */
export const HOT_WALKS = [
  { request: 'GET /v1/demos/:id', files: 12 },
  { request: 'POST /v1/viewer/:token/events', files: 12, domains: 2 },
];

const code = (s) => `\`${s}\``;
const list = (xs) => (xs.length > 0 ? xs.join(', ') : '—');

function domainsTable() {
  const mods = modules();
  const byFolder = new Map();
  for (const m of mods) byFolder.set(m.folder, [...(byFolder.get(m.folder) ?? []), m]);
  // Folders holding tables without a module (events/: the outbox) are listed too: they own tables.
  for (const file of sourceFiles().filter((f) => f.endsWith('.tables.ts'))) {
    if (!byFolder.has(partOf(file))) byFolder.set(partOf(file), [{ folder: partOf(file), tablesFile: file, needs: [], reads: [], description: '' }]);
  }
  const rows = ['| Folder | Module | Owns | Tables | Needs (services) | Reads (others\' tables, by owner) |', '|---|---|---|---|---|---|'];
  for (const folder of [...byFolder.keys()].sort()) {
    const ms = byFolder.get(folder);
    const tables = ms.flatMap((m) => (m.tablesFile && existsSync(m.tablesFile) ? [...tablesOf(m.tablesFile).values()] : []));
    const reads = new Map();
    for (const r of ms.flatMap((m) => m.reads)) {
      const owner = partOf(r.file);
      reads.set(owner, [...(reads.get(owner) ?? []), r.sql ?? r.name]);
    }
    const readsText = [...reads].sort(([a], [b]) => a.localeCompare(b)).map(([owner, ts]) => `${owner}: ${ts.join(', ')}`);
    rows.push(
      `| ${code(`${folder}/`)} | ${ms.map((m) => (m.name ? code(m.name) : '(no module)')).join(', ')} | ${ms.map((m) => m.description).filter(Boolean).join(' ') || '—'} | ${list(tables)} | ${list(ms.flatMap((m) => m.needs).map(code))} | ${list(readsText)} |`,
    );
  }
  return rows.join('\n');
}

function directions() {
  const edges = partEdges();
  const parts = new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]);
  const lines = [...parts].sort().map((p) => {
    const to = [...(edges.get(p)?.keys() ?? [])].sort();
    return `${p} → ${to.length > 0 ? to.join(', ') : '(nothing in src/)'}`;
  });
  return ['```', ...lines, '```'].join('\n');
}

function walks() {
  const out = [];
  for (const target of HOT_WALKS) {
    const w = walk(target.request);
    const limit = `at most ${target.files} files${target.domains ? ` and ${target.domains} domains` : ''}`;
    const tablesOnly = w.tableDomains.length > 0 ? `; only the table declarations of ${w.tableDomains.join(', ')}` : '';
    out.push(
      `${code(target.request)}: **${w.files.length} files, ${w.domains.length} domain(s)** (${w.domains.join(' → ')}; code run in ${w.codeDomains.join(' → ')}${tablesOnly}; the aim: ${limit}).`,
    );
    out.push(`${w.files.map(code).join(' → ')}.`);
    if (w.stops.length > 0) out.push(`The checker's trail stops at: ${w.stops.map((s) => code(s.replace(/\|/g, '\\|'))).join('; ')}.`);
    out.push('');
  }
  return out.join('\n').trim();
}

const SECTIONS = { domains: domainsTable, directions, walks };

export function render(text) {
  let out = text;
  for (const [name, make] of Object.entries(SECTIONS)) {
    const open = `<!-- generated:${name} -->`;
    const close = `<!-- /generated:${name} -->`;
    const start = out.indexOf(open);
    const end = out.indexOf(close);
    if (start < 0 || end < start) throw new Error(`docs/architecture.md lacks the markers ${open} … ${close}`);
    out = `${out.slice(0, start + open.length)}\n${make()}\n${out.slice(end)}`;
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const current = readFileSync(DOC, 'utf8');
  const next = render(current);
  if (process.argv.includes('--check')) {
    if (next === current) {
      console.log(`${rel(DOC)}: the generated sections match the code.`);
      process.exit(0);
    }
    const a = current.split('\n');
    const b = next.split('\n');
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    console.error(`${rel(DOC)} differs from what the code generates (first at line ${i + 1}):`);
    console.error(`  doc:  ${a[i] ?? '(end)'}\n  code: ${b[i] ?? '(end)'}`);
    console.error('Run `node scripts/architecture-doc.mjs` and commit the doc.');
    process.exit(1);
  }
  writeFileSync(DOC, next);
  console.log(`${rel(DOC)}: generated sections written.`);
}

