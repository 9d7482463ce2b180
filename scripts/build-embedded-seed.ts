// `npm run build:seed` (part of `npm ci`'s prepare): the migrated embedded cluster a first `demoshare start` copies (src/db/embedded-seed.ts).
import { buildEmbeddedSeed } from '../src/db/embedded-seed';

const started = performance.now();
const { file, bytes } = await buildEmbeddedSeed();
console.log(`embedded seed: ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
