#!/usr/bin/env node
// Counts the files of src/ a reader opens to follow one HTTP request: `node scripts/walk-count.mjs "POST /v1/viewer/:token/events"`.
//
// The walk is "go to definition", done by the TypeScript checker: it starts at the handler of the route's
// registration (`app.post('/viewer/:token/events', ..., handler)`) and, for every name the handler uses in
// an expression (a call, `new`, a name passed as a value; a property read only when it is called), goes to
// that name's declaration and walks its body in turn:
// a function, a method, an object literal's property (a factory's verb), a variable's initializer. Types
// are not followed (a type annotation is not a step of the flow). A called name whose declaration has no
// body (an injected port's interface member) is followed as "go to implementation" does, to every
// implementation outside the tests; where there is none the trail stops, and is listed as such. Every
// static path is walked, error branches and cache misses included, so the count is the upper bound of one
// request's files, not the cache-hit path of a hand-traced walk.
//
// Counted: files of the domain folders. Not counted (listed apart): the files directly in src/ (app.ts,
// module.ts, context.ts: composition and types) and the infrastructure folders core/, db/, jobs/, mail/,
// auth/, events/ (the outbox, beside jobs/ in the layering of docs/architecture.md), which every request
// shares; the walk does not go into them either. A port typed as `typeof someFunction` is followed to that
// function, as "go to type definition" does, rather than to every object that passes it along. "Domains" are the distinct
// folders among the counted files.
import path from 'node:path';
import ts from 'typescript';
import { partOf, ROOT, rel, SRC } from './architecture-graph.mjs';

export const INFRASTRUCTURE = new Set(['core', 'db', 'jobs', 'mail', 'auth', 'events']);

let service;
/** One language service over src/: its program's checker resolves names, and it answers "go to implementation". */
function checkerOf() {
  if (!service) {
    const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    const fileNames = config.fileNames.filter((f) => f.startsWith(SRC));
    service = ts.createLanguageService(
      {
        getScriptFileNames: () => fileNames,
        getScriptVersion: () => '1',
        getScriptSnapshot: (f) => (ts.sys.fileExists(f) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(f)) : undefined),
        getCurrentDirectory: () => ROOT,
        getCompilationSettings: () => ({ ...config.options, noEmit: true }),
        getDefaultLibFileName: ts.getDefaultLibFilePath,
        fileExists: ts.sys.fileExists,
        readFile: ts.sys.readFile,
        readDirectory: ts.sys.readDirectory,
        directoryExists: ts.sys.directoryExists,
        getDirectories: ts.sys.getDirectories,
      },
      ts.createDocumentRegistry(),
    );
  }
  const program = service.getProgram();
  return { service, program, checker: program.getTypeChecker() };
}

/** The declaration with a body around `position` of `fileName`: where "go to implementation" lands. */
function declarationAt(program, fileName, position) {
  const source = program.getSourceFile(fileName);
  if (!source) return undefined;
  let found;
  const visit = (node) => {
    if (position < node.getFullStart() || position >= node.getEnd()) return;
    if (bodyOf(node)) found = node;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The registration call of `METHOD /v1/path` (or a page's `METHOD /path`) and its source file. */
function findRoute(method, routePath) {
  const { program } = checkerOf();
  const wanted = new Set([routePath, routePath.replace(/^\/v1(?=\/)/, '')]);
  for (const source of program.getSourceFiles()) {
    if (!source.fileName.startsWith(SRC) || source.isDeclarationFile) continue;
    let found;
    const visit = (node) => {
      if (found) return;
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.name.text === method &&
        node.arguments.length >= 2 &&
        ts.isStringLiteralLike(node.arguments[0]) &&
        wanted.has(node.arguments[0].text)
      ) {
        found = node;
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    if (found) return { source, call: found };
  }
  return undefined;
}

/** What a declaration runs when it is reached: the node to walk, or null when it has no body to read. */
function bodyOf(decl) {
  if (ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl) || ts.isConstructorDeclaration(decl)) return decl.body ?? null;
  if (ts.isGetAccessorDeclaration(decl) || ts.isSetAccessorDeclaration(decl)) return decl.body ?? null;
  if (ts.isVariableDeclaration(decl) || ts.isPropertyAssignment(decl) || ts.isPropertyDeclaration(decl)) return decl.initializer ?? null;
  if (ts.isClassDeclaration(decl)) return decl.members.find(ts.isConstructorDeclaration)?.body ?? null;
  if (ts.isParameter(decl) || ts.isBindingElement(decl)) return null;
  return null;
}

/**
 * Walks one request. Returns { route, files (counted, in the order first opened), stops (files where a
 * trail ends at a declaration without a body), domains, infrastructure (files reached, not counted) }.
 */
export function walk(request) {
  const [method, routePath] = request.trim().split(/\s+/);
  const { checker, service, program } = checkerOf();
  const route = findRoute(method.toLowerCase(), routePath);
  if (!route) throw new Error(`No registration of ${request} found in src/ (looked for .${method.toLowerCase()}('${routePath}', ...))`);
  const files = [route.source.fileName];
  const stops = new Set();
  const infrastructure = new Set();
  const seen = new Set();
  const queue = [route.call.arguments[route.call.arguments.length - 1]];

  /** `called`: the name is what a call or `new` runs, so a declaration without a body ends a trail there. */
  const reach = (decl, called, at) => {
    const file = decl.getSourceFile().fileName;
    if (!file.startsWith(SRC) || decl.getSourceFile().isDeclarationFile) return;
    const part = partOf(file);
    if (!part || INFRASTRUCTURE.has(part)) {
      infrastructure.add(file);
      return;
    }
    const body = bodyOf(decl);
    // A data property or a type's member read on the way is not a file one opens; a called name is.
    if (!body && !called) return;
    if (!files.includes(file)) {
      files.push(file);
      if (process.env.WALK_DEBUG && at) console.error(`${rel(file)}  ← ${rel(at.getSourceFile().fileName)}: ${at.parent.getText().slice(0, 70)}`);
    }
    if (!body) {
      // A port typed `typeof fn` (directly or through an alias) names its implementation: go there.
      const named = typeQueryTarget(decl);
      if (named) {
        for (const d of named) reach(d, false);
        return;
      }
      // An injected port: "go to implementation", as a reader would, from the call.
      const impls = at ? (service.getImplementationAtPosition(at.getSourceFile().fileName, at.getStart()) ?? []) : [];
      // Tests' fakes implement ports too; a reader follows the production one.
      const targets = impls
        .filter((i) => !/\.test\.tsx?$/.test(i.fileName))
        .map((i) => declarationAt(program, i.fileName, i.textSpan.start))
        .filter((d) => d && d !== decl);
      // A class without a constructor is not a dead end: its methods are reached by name where called.
      if (targets.length === 0 && !ts.isParameter(decl) && !ts.isBindingElement(decl) && !ts.isClassDeclaration(decl)) {
        stops.add(`${rel(file)}: ${decl.getText().split('\n')[0].slice(0, 80)}`);
      }
      for (const target of targets) reach(target, false);
      return;
    }
    if (seen.has(decl)) return;
    seen.add(decl);
    // A tables file is read for its columns; its foreign keys are not a step of the request.
    if (!file.endsWith('.tables.ts')) queue.push(body);
  };
  /** The function a `typeof fn` port type names (through one type alias at most), or undefined. */
  const typeQueryTarget = (decl) => {
    let type = decl.type;
    if (type && ts.isTypeReferenceNode(type)) {
      let alias = checker.getSymbolAtLocation(type.typeName);
      if (alias && alias.flags & ts.SymbolFlags.Alias) alias = checker.getAliasedSymbol(alias);
      type = alias?.declarations?.find(ts.isTypeAliasDeclaration)?.type;
    }
    if (!type || !ts.isTypeQueryNode(type)) return undefined;
    let target = checker.getSymbolAtLocation(type.exprName);
    if (target && target.flags & ts.SymbolFlags.Alias) target = checker.getAliasedSymbol(target);
    const decls = (target?.declarations ?? []).filter((d) => bodyOf(d));
    return decls.length > 0 ? decls : undefined;
  };
  const calledName = (node) => {
    const parent = node.parent;
    const callee = ts.isPropertyAccessExpression(parent) && parent.name === node ? parent : node;
    return (ts.isCallExpression(callee.parent) || ts.isNewExpression(callee.parent)) && callee.parent.expression === callee;
  };

  const visit = (node) => {
    if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      let symbol = checker.getSymbolAtLocation(node);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      const called = calledName(node);
      // `row.status`, `found.share.demoId`: a property read lands on a row type or a column, not a step.
      const propertyRead = ts.isPropertyAccessExpression(node.parent) && node.parent.name === node && !called;
      for (const decl of propertyRead ? [] : (symbol?.declarations ?? [])) {
        if (ts.isShorthandPropertyAssignment(decl)) {
          const value = checker.getShorthandAssignmentValueSymbol(decl);
          for (const d of value?.declarations ?? []) reach(d, called, node);
        } else if (decl.name !== node) {
          reach(decl, called, node);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  while (queue.length > 0) visit(queue.shift());

  const counted = files.map(rel);
  return {
    route: `${rel(route.source.fileName)}:${route.source.getLineAndCharacterOfPosition(route.call.getStart()).line + 1}`,
    files: counted,
    stops: [...stops],
    domains: [...new Set(files.map(partOf))],
    // A domain whose code the request runs (a service, a repository, a port's implementation), as against one
    // whose table declaration a query names (a foreign key, or a read the module declares in `reads`).
    codeDomains: [...new Set(files.filter((f) => !f.endsWith('.tables.ts')).map(partOf))],
    tableDomains: [...new Set(files.filter((f) => f.endsWith('.tables.ts')).map(partOf))].filter(
      (d) => !files.some((f) => !f.endsWith('.tables.ts') && partOf(f) === d),
    ),
    infrastructure: [...infrastructure].map(rel).sort(),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const requests = process.argv.slice(2);
  if (requests.length === 0) {
    console.error('usage: node scripts/walk-count.mjs "POST /v1/viewer/:token/events" ["GET /v1/demos/:id" ...]');
    process.exit(2);
  }
  for (const request of requests) {
    const w = walk(request);
    console.log(`${request}: ${w.files.length} files, ${w.domains.length} domains (${w.domains.join(' → ')}); route at ${w.route}`);
    console.log(`  code run in ${w.codeDomains.length} domain(s): ${w.codeDomains.join(' → ')}; only table declarations of: ${w.tableDomains.join(', ') || '—'}`);
    for (const f of w.files) console.log(`  ${f}`);
    for (const s of w.stops) console.log(`  a trail stops at a name with no body behind it: ${s}`);
    console.log(`  not counted (infrastructure, root files): ${w.infrastructure.join(', ') || '—'}`);
  }
}
