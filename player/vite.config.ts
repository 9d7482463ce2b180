import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The viewer page (/s/:token, /embed/:token) is rendered by the server and references these two files by
// name, so they are built without content hashes; the server serves them with revalidation instead.
export default defineConfig({
  root: here('.'),
  publicDir: false,
  build: {
    outDir: here('../dist/player'),
    emptyOutDir: true,
    target: 'es2020',
    // Class fields lowered to plain assignments: by default es2020 gets defineProperty helpers, about 1 KB
    // for two classes (ViewerError, Tracker) with no accessors and no subclass, where it changes nothing.
    rolldownOptions: { transform: { assumptions: { setPublicClassFields: true } } },
    // An IIFE runs the same whether the shell loads it as a classic or a module script.
    lib: {
      entry: here('src/main.ts'),
      formats: ['iife'],
      name: 'DemosharePlayer',
      fileName: () => 'player.js',
      cssFileName: 'player',
    },
  },
});
