#!/usr/bin/env node
// Fails when the top-level folders of src/ (src/demos, src/core, ...) import each other in a cycle.
// Type-only imports count: they tie the designs together all the same. The files directly in src/
// (app.ts, runtime.ts, ...) compose the folders and are left out. Reads import lines with a regular
// expression: no build step, no dependency. Run by scripts/test.mjs (so by CI) before the linter.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"`]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) yield full;
  }
}

/** The part of src/ a file belongs to: `demos/` for its top-level folder, or its name when it sits in src/. */
const partOf = (file) => {
  const [first, ...rest] = path.relative(SRC, file).split(path.sep);
  return rest.length === 0 ? first.replace(/\.tsx?$/, '') : `${first}/`;
};

function resolve(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** part → part → one file-level import that makes the edge, for the message. */
const edges = new Map();
for (const file of files(SRC)) {
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2];
    if (!spec?.startsWith('.')) continue;
    const target = resolve(file, spec);
    if (!target?.startsWith(SRC)) continue;
    const [a, b] = [partOf(file), partOf(target)];
    if (a === b || !a.endsWith('/') || !b.endsWith('/')) continue;
    if (!edges.has(a)) edges.set(a, new Map());
    if (!edges.get(a).has(b)) edges.get(a).set(b, `${path.relative(SRC, file)} → ${path.relative(SRC, target)}`);
  }
}

// Tarjan's strongly connected components: every component of more than one part is a cycle.
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

if (cycles.length === 0) {
  console.log(`No import cycle between the ${new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]).size} parts of src/.`);
  process.exit(0);
}
for (const component of cycles) {
  const members = new Set(component);
  console.error(`Import cycle between ${component.join(', ')}:`);
  for (const a of component) {
    for (const [b, why] of edges.get(a) ?? []) if (members.has(b)) console.error(`  ${a} → ${b}   (${why})`);
  }
}
process.exit(1);
