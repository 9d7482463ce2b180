/**
 * npm run build:extension — builds the recorder extension into dist/extension (load it unpacked from there)
 * and packs it as dist/demoshare-recorder-<version>.zip for Chromium-based browsers (Chrome, Edge, Brave)
 * and enterprise policy installs.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import sharp from 'sharp';
import { build, type LibraryFormats } from 'vite';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = join(ROOT, 'extension');
export const EXTENSION_DIR = join(ROOT, 'dist/extension');

/** Each script the manifest names is bundled on its own: a content script cannot be an ES module. */
const BUNDLES: { name: string; entry: string; format: LibraryFormats }[] = [
  { name: 'background', entry: 'src/background/index.ts', format: 'es' },
  { name: 'content', entry: 'src/content/index.ts', format: 'iife' },
  { name: 'popup', entry: 'src/popup/index.ts', format: 'iife' },
  { name: 'oauth-callback', entry: 'src/callback/index.ts', format: 'iife' },
];

const STATIC: [string, string][] = [
  ['src/popup/popup.html', 'popup.html'],
  ['src/popup/popup.css', 'popup.css'],
  ['src/callback/oauth-callback.html', 'oauth-callback.html'],
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

export async function buildExtension(): Promise<{ dir: string; zip: string }> {
  rmSync(EXTENSION_DIR, { recursive: true, force: true });
  mkdirSync(join(EXTENSION_DIR, 'icons'), { recursive: true });
  for (const bundle of BUNDLES) {
    await build({
      configFile: false,
      logLevel: 'warn',
      root: SOURCE,
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        outDir: EXTENSION_DIR,
        emptyOutDir: false,
        target: 'chrome120',
        minify: false,
        sourcemap: false,
        copyPublicDir: false,
        lib: { entry: join(SOURCE, bundle.entry), formats: [bundle.format], name: 'demoshareRecorder', fileName: () => `${bundle.name}.js` },
      },
    });
  }
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const manifest = JSON.parse(readFileSync(join(SOURCE, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(EXTENSION_DIR, 'manifest.json'), `${JSON.stringify({ ...manifest, version }, null, 2)}\n`);
  for (const [from, to] of STATIC) copyFileSync(join(SOURCE, from), join(EXTENSION_DIR, to));
  const svg = readFileSync(join(SOURCE, 'icon.svg'));
  for (const size of [16, 48, 128]) {
    await sharp(svg, { density: 300 }).resize(size, size).png().toFile(join(EXTENSION_DIR, `icons/icon-${size}.png`));
  }
  const files = Object.fromEntries(filesUnder(EXTENSION_DIR).map((path) => [relative(EXTENSION_DIR, path), readFileSync(path)]));
  const zip = join(ROOT, `dist/demoshare-recorder-${version}.zip`);
  writeFileSync(zip, zipSync(files, { level: 9 }));
  return { dir: EXTENSION_DIR, zip };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const { dir, zip } = await buildExtension();
  console.log(`Built the recorder extension in ${relative(ROOT, dir)} and ${relative(ROOT, zip)}`);
}
