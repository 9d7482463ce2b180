// The source graph of src/ that the architecture checks share: files, their imports, tables, and modules.
//
// Parsed with the TypeScript compiler's parser (a devDependency already), not executed: no build step, no
// database, and type-only imports are told apart exactly. Used by check-imports.mjs, architecture-doc.mjs
// and walk-count.mjs.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SRC = path.join(ROOT, 'src');

/** `src/demos/demos.repo.ts` for an absolute path: how every message names a file. */
export const rel = (file) => path.relative(ROOT, file).split(path.sep).join('/');

/** Every source file of src/ but the tests. */
export function sourceFiles(dir = SRC) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/**
 * The part of src/ a file belongs to: its top-level folder (`demos`), or null for the files directly in
 * src/ (app.ts, kernel.ts, module.ts, ...), which compose the folders and are bound by no folder rule.
 */
export const partOf = (file) => {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts.length > 1 && !parts[0].startsWith('..') ? parts[0] : null;
};

export function resolveImport(from, spec) {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec.replace(/\.js$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const parsed = new Map();
/** The file's syntax tree (cached). */
export function sourceOf(file) {
  if (!parsed.has(file)) {
    parsed.set(file, ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));
  }
  return parsed.get(file);
}

/**
 * The file's imports of other files of the project: `{ target, typeOnly, names: [{ imported, local,
 * typeOnly }], line }`. `names` is null for `import * as`, side-effect imports, `export *` and `import()`.
 */
export function importsOf(file) {
  const source = sourceOf(file);
  const out = [];
  const line = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const add = (node, spec, typeOnly, names) => {
    const target = resolveImport(file, spec);
    if (target) out.push({ target, typeOnly, names, line: line(node) });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const whole = Boolean(clause?.isTypeOnly);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        const names = bindings.elements.map((e) => ({
          imported: (e.propertyName ?? e.name).text,
          local: e.name.text,
          typeOnly: whole || e.isTypeOnly,
        }));
        if (clause.name) names.push({ imported: 'default', local: clause.name.text, typeOnly: whole });
        add(node, node.moduleSpecifier.text, names.every((n) => n.typeOnly), names);
      } else {
        add(node, node.moduleSpecifier.text, whole, clause?.name && !bindings ? [{ imported: 'default', local: clause.name.text, typeOnly: whole }] : null);
      }
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const names =
        node.exportClause && ts.isNamedExports(node.exportClause)
          ? node.exportClause.elements.map((e) => ({
              imported: (e.propertyName ?? e.name).text,
              local: e.name.text,
              typeOnly: node.isTypeOnly || e.isTypeOnly,
            }))
          : null;
      add(node, node.moduleSpecifier.text, node.isTypeOnly, names);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node, node.arguments[0].text, false, null);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node, node.argument.literal.text, true, null);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** A tables file's tables: export name → SQL name, for every `export const x = pgTable('name', ...)`. */
export function tablesOf(file) {
  const tables = new Map();
  for (const statement of sourceOf(file).statements) {
    if (!ts.isVariableStatement(statement)) continue;
    if (!statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    for (const decl of statement.declarationList.declarations) {
      const init = decl.initializer;
      if (!init || !ts.isCallExpression(init) || !ts.isIdentifier(init.expression) || init.expression.text !== 'pgTable') continue;
      const [name] = init.arguments;
      if (ts.isIdentifier(decl.name) && name && ts.isStringLiteral(name)) tables.set(decl.name.text, name.text);
    }
  }
  return tables;
}

const prop = (object, key) =>
  object.properties.find((p) => ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === key)
    ?.initializer;
const strings = (node) =>
  node && ts.isArrayLiteralExpression(node) ? node.elements.filter(ts.isStringLiteral).map((e) => e.text) : [];

/** The first sentence of a doc comment, on one line. */
const firstSentence = (text) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/\.(\s|$)/);
  return end < 0 ? flat : flat.slice(0, end + 1);
};

/**
 * Every module: the `defineModule({...})` of each src/<folder>/<name>.module.ts, read from its source.
 * `reads` maps each identifier of `reads.tables` through the module file's imports to { file, name, sql }.
 */
export function modules() {
  const out = [];
  for (const file of sourceFiles().filter((f) => f.endsWith('.module.ts'))) {
    const source = sourceOf(file);
    const imports = new Map();
    for (const imp of importsOf(file)) for (const n of imp.names ?? []) imports.set(n.local, { file: imp.target, name: n.imported });
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const decl of statement.declarationList.declarations) {
        const call = decl.initializer;
        if (!call || !ts.isCallExpression(call) || call.expression.getText(source) !== 'defineModule') continue;
        const object = call.arguments[0];
        if (!object || !ts.isObjectLiteralExpression(object)) continue;
        const owns = prop(object, 'owns');
        const tablesFile = owns && ts.isObjectLiteralExpression(owns) ? prop(owns, 'tables') : undefined;
        const readsNode = prop(object, 'reads');
        const readTables = readsNode && ts.isObjectLiteralExpression(readsNode) ? prop(readsNode, 'tables') : undefined;
        const reads = [];
        for (const element of readTables && ts.isArrayLiteralExpression(readTables) ? readTables.elements : []) {
          const origin = ts.isIdentifier(element) ? imports.get(element.text) : undefined;
          if (!origin) throw new Error(`${rel(file)}: reads.tables names ${element.getText(source)}, which is not an imported table`);
          reads.push({ ...origin, sql: tablesOf(origin.file).get(origin.name) });
        }
        const doc = ts.getJSDocCommentsAndTags(decl).map((d) => (typeof d.comment === 'string' ? d.comment : ''));
        out.push({
          file,
          folder: partOf(file),
          variable: decl.name.getText(source),
          name: ts.isStringLiteral(prop(object, 'name') ?? {}) ? prop(object, 'name').text : decl.name.getText(source),
          description: firstSentence(doc.join(' ')),
          tablesFile: tablesFile && ts.isStringLiteral(tablesFile) ? path.join(path.dirname(file), tablesFile.text) : undefined,
          needs: strings(prop(object, 'needs')),
          reads,
        });
      }
    }
  }
  return out;
}

/**
 * part → part → the first file-level import that makes the edge (`src/a/x.ts → src/b/y.ts`), over every
 * import, type-only ones included: they tie the designs together all the same.
 */
export function partEdges(files = sourceFiles()) {
  const edges = new Map();
  for (const file of files) {
    const a = partOf(file);
    if (!a) continue;
    for (const imp of importsOf(file)) {
      const b = partOf(imp.target);
      if (!b || a === b) continue;
      if (!edges.has(a)) edges.set(a, new Map());
      if (!edges.get(a).has(b)) edges.get(a).set(b, `${rel(file)} → ${rel(imp.target)}`);
    }
  }
  return edges;
}
