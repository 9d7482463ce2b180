import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_KINDS } from '../../packages/sdk/src/index';
import { EVENT_KINDS } from '../../src/events/event-kinds';

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('the SDK package', () => {
  it('has generated files that match the document the server serves now and its event kinds', () => {
    // `sdk:generate --check` in a process of its own, with one app in it, as a server has. In this worker the
    // document would not be the server's: its components are every schema with an id in zod's process-wide
    // registry, which other test files' apps (vitest's isolate: false) have added to.
    const check = spawnSync(process.execPath, ['bin/run-ts.js', 'scripts/sdk-generate.ts', '--check'], { encoding: 'utf8', timeout: 240_000 });
    expect(check.status, `The SDK is out of date with the server: run \`npm run sdk:generate\` and commit the files named\n${check.stdout}${check.stderr}`).toBe(0);
  });

  it('knows every event kind the server sends, in its order', () => {
    expect([...WEBHOOK_EVENT_KINDS]).toEqual([...EVENT_KINDS]);
  });

  it('depends on the openapi-fetch and openapi-typescript the repository tests it with', () => {
    const sdk = readJson('packages/sdk/package.json');
    const root = readJson('package.json');
    expect(sdk.dependencies).toEqual({ 'openapi-fetch': root.devDependencies['openapi-fetch'] });
    expect(sdk.devDependencies['openapi-typescript']).toBe(root.devDependencies['openapi-typescript']);
    expect(sdk.devDependencies.typescript).toBe(root.devDependencies.typescript);
    expect(sdk).toMatchObject({ name: '@demoshare/sdk', type: 'module', engines: { node: '>=20' } });
    expect(sdk.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
  });

  it('documents every export with TSDoc and an @example', () => {
    const program = ts.createProgram(['packages/sdk/src/index.ts'], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true });
    const checker = program.getTypeChecker();
    const index = checker.getSymbolAtLocation(program.getSourceFile('packages/sdk/src/index.ts')!)!;
    const hasExample = (node: ts.Node) =>
      ts.getJSDocTags(node).some((tag) => tag.tagName.text === 'example') ||
      // `export type { a, b }` carries its TSDoc on the export declaration.
      (ts.isExportSpecifier(node) && ts.getJSDocTags(node.parent.parent).some((tag) => tag.tagName.text === 'example'));
    const undocumented: string[] = [];
    for (const exported of checker.getExportsOfModule(index)) {
      let symbol: ts.Symbol | undefined = exported;
      let documented = false;
      while (symbol && !documented) {
        documented = (symbol.declarations ?? []).some(hasExample);
        symbol = symbol.flags & ts.SymbolFlags.Alias ? checker.getImmediateAliasedSymbol(symbol) : undefined;
      }
      if (!documented) undocumented.push(exported.name);
    }
    expect(checker.getExportsOfModule(index).length).toBeGreaterThan(50);
    expect(undocumented).toEqual([]);
  });
});
