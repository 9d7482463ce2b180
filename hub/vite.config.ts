import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The hub page (/h/:token, /embed/h/:token) is rendered by the server and names these two files, so they are
// built without content hashes (served with revalidation), as the player's are.
export default defineConfig({
  root: here('.'),
  publicDir: false,
  build: {
    outDir: here('../dist/hub'),
    emptyOutDir: true,
    target: 'es2020',
    lib: {
      entry: here('src/main.ts'),
      formats: ['iife'],
      name: 'DemoshareHub',
      fileName: () => 'hub.js',
      cssFileName: 'hub',
    },
  },
});
