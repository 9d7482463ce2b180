#!/usr/bin/env node
// Fails on an import that crosses the boundaries docs/architecture.md states: cycles between the folders
// of src/, another domain's repository, another domain's tables (but for a foreign key or a declared read).
//
// A "domain" here is a top-level folder of src/ (src/demos, src/events, src/core, ...): every folder is
// bound by the rules, infrastructure included, so core/ importing a domain's repository fails like any
// other. The files directly in src/ (app.ts, kernel.ts, runtime.ts, module.ts, ...) compose the folders and
// are left out. Test files are left out. Type-only imports count: they tie the designs together all the
// same. Rules:
//   cycle    no cycle between folders.
//   repo     a file never imports another folder's `*.repo.ts`: it asks that module's services or reader.
//   tables   a file never imports another folder's tables (the `pgTable` exports of `*.tables.ts`), except
//            (1) a `*.tables.ts` file, for a foreign key (`.references(() => other.id)`), and
//            (2) a `*.repo.ts` or `*.module.ts` file of a folder whose module lists that very table in
//            `reads.tables` (src/module.ts). What else a tables file exports (status lists, their types) is
//            the domain's vocabulary and may be imported.
// Run by scripts/test.mjs (so by CI) before the linter.
import { importsOf, modules, partEdges, partOf, rel, sourceFiles, tablesOf } from './architecture-graph.mjs';

const files = sourceFiles();
const problems = [];

// --- cycle: Tarjan's strongly connected components; every component of more than one folder is a cycle.
const edges = partEdges(files);
let index = 0;
const stack = [];
const state = new Map();
const cycles = [];
function visit(v) {
  state.set(v, { index, low: index, onStack: true });
  index++;
  stack.push(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!state.has(w)) {
      visit(w);
      state.get(v).low = Math.min(state.get(v).low, state.get(w).low);
    } else if (state.get(w).onStack) {
      state.get(v).low = Math.min(state.get(v).low, state.get(w).index);
    }
  }
  if (state.get(v).low === state.get(v).index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      state.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  }
}
for (const v of [...edges.keys()].sort()) if (!state.has(v)) visit(v);
for (const component of cycles) {
  const members = new Set(component);
  const lines = [`[cycle] import cycle between the folders ${component.map((c) => `${c}/`).join(', ')}:`];
  for (const a of component) {
    for (const [b, why] of edges.get(a) ?? []) if (members.has(b)) lines.push(`    ${a}/ → ${b}/   (${why})`);
  }
  problems.push(lines.join('\n'));
}

// --- repo and tables.
/** folder → "file#export" of every table its modules declare in reads.tables. */
const declared = new Map();
for (const m of modules()) {
  if (!declared.has(m.folder)) declared.set(m.folder, new Set());
  for (const r of m.reads) {
    if (!r.sql) problems.push(`[tables] ${rel(m.file)}: reads.tables names ${r.name} of ${rel(r.file)}, which is not a pgTable there`);
    declared.get(m.folder).add(`${r.file}#${r.name}`);
  }
}
for (const file of files) {
  const from = partOf(file);
  if (!from) continue;
  for (const imp of importsOf(file)) {
    const to = partOf(imp.target);
    if (!to || to === from) continue;
    const where = `${rel(file)}:${imp.line} → ${rel(imp.target)}`;
    if (imp.target.endsWith('.repo.ts')) {
      problems.push(`[repo] ${where}\n    imports the ${to}/ folder's repository; ask its module's services (needs) or its reader instead.`);
      continue;
    }
    if (!imp.target.endsWith('.tables.ts') || file.endsWith('.tables.ts')) continue;
    const tables = tablesOf(imp.target);
    const named = imp.names === null ? [...tables.keys()] : imp.names.map((n) => n.imported).filter((n) => tables.has(n));
    const mayDeclare = /\.(repo|module)\.ts$/.test(file);
    const undeclared = named.filter((n) => !mayDeclare || !declared.get(from)?.has(`${imp.target}#${n}`));
    if (undeclared.length === 0) continue;
    const which = undeclared.map((n) => tables.get(n)).join(', ');
    problems.push(
      mayDeclare
        ? `[tables] ${where}\n    reads the ${to}/ table(s) ${which} that no module of ${from}/ declares in reads.tables.`
        : `[tables] ${where}\n    imports the ${to}/ table(s) ${which} outside a repository: only ${to}/'s own files, a foreign key in a *.tables.ts, or a *.repo.ts of a module declaring the read may.`,
    );
  }
}

if (problems.length === 0) {
  const parts = new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]);
  console.log(`No import cycle between the ${parts.size} folders of src/; no repository or table imported across a boundary.`);
  process.exit(0);
}
for (const p of problems) console.error(p);
console.error(`\n${problems.length} import(s) break the boundaries (rules: scripts/check-imports.mjs, docs/architecture.md).`);
process.exit(1);
