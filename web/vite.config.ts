import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  plugins: [react()],
  build: {
    outDir: here('../dist/web'),
    emptyOutDir: true,
  },
  server: {
    // `npx vite --config web/vite.config.ts` beside `npm run dev`: the API stays on its own port.
    proxy: { '/v1': 'http://localhost:3000' },
  },
});
