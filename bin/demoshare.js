#!/usr/bin/env node
// Runs the TypeScript sources through tsx so that `npx demoshare` works right after `npm ci`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
