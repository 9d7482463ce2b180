#!/usr/bin/env node
// Runs one TypeScript entry point (benchmarks, scripts) with tsx.
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  console.error('usage: run-ts.js <file.ts> [args...]');
  process.exit(2);
}
process.argv = [process.argv[0], entry, ...rest];
await import(pathToFileURL(entry).href);
