import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const OUT_DIR = here('../dist/web');

/**
 * Leaves the files of the build before this one beside it, and removes any older. Chunks are loaded as the
 * app is used, so a tab opened before an upgrade in place (`npm ci` rebuilds dist/web under a running
 * server) still asks for the old names: kept, they load, instead of the tab saying it must be reloaded.
 * The list of the last build is kept beside the served folder, not in it (dist/.web-build-files.json).
 */
function keepPreviousBuild(): Plugin {
  return {
    name: 'demoshare:keep-previous-build',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? OUT_DIR;
      const record = join(dirname(outDir), `.${basename(outDir)}-build-files.json`);
      const current = Object.keys(bundle).filter((name) => name.startsWith('assets/'));
      const previous: string[] = existsSync(record) ? JSON.parse(readFileSync(record, 'utf8')) : [];
      const keep = new Set([...current, ...previous]);
      for (const name of readdirSync(join(outDir, 'assets'))) {
        if (!keep.has(`assets/${name}`)) rmSync(join(outDir, 'assets', name));
      }
      writeFileSync(record, JSON.stringify(current));
    },
  };
}

export default defineConfig({
  root: here('.'),
  plugins: [react(), keepPreviousBuild()],
  build: {
    outDir: OUT_DIR,
    // keepPreviousBuild removes what is no longer needed.
    emptyOutDir: false,
  },
  server: {
    // `npx vite --config web/vite.config.ts` beside `npm run dev`: the API stays on its own port.
    proxy: { '/v1': 'http://localhost:3000' },
  },
});
