/**
 * npm run build:extension (part of `npm ci`, through `prepare`) — builds the recorder extension into
 * dist/extension, which the instance packs and serves with its own address (src/recorder-extension), and
 * writes the package for the Chrome Web Store and other stores, dist/recorder/demoshare-recorder-<version>-store.zip
 * (no "key" in its manifest: a store gives the id; no instance address: the user types theirs).
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { build, type LibraryFormats } from 'vite';
import { zipFiles } from '../src/recorder-extension/instance-package';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = join(ROOT, 'extension');
export const EXTENSION_DIR = join(ROOT, 'dist/extension');
export const PACKAGE_DIR = join(ROOT, 'dist/recorder');

/** The sizes the stores and the browsers ask for (toolbar 16/32, extensions page 48, store and install 128). */
export const ICON_SIZES = [16, 32, 48, 128] as const;

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

/** Every file under `dir`, as [path inside it with forward slashes, bytes]. */
export function filesUnder(dir: string, base = dir): { path: string; data: Buffer }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path, base);
    return [{ path: relative(base, path).split(sep).join('/'), data: readFileSync(path) }];
  });
}

export async function buildExtension(out = EXTENSION_DIR, packageDir = PACKAGE_DIR): Promise<{ dir: string; storeZip: string }> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'icons'), { recursive: true });
  for (const bundle of BUNDLES) {
    await build({
      configFile: false,
      logLevel: 'warn',
      root: SOURCE,
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        outDir: out,
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
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify({ ...manifest, version }, null, 2)}\n`);
  for (const [from, to] of STATIC) copyFileSync(join(SOURCE, from), join(out, to));
  const svg = readFileSync(join(SOURCE, 'icon.svg'));
  for (const size of ICON_SIZES) {
    await sharp(svg, { density: 300 }).resize(size, size).png().toFile(join(out, `icons/icon-${size}.png`));
  }

  // The store package: the same files, without the "key" that pins the id of builds installed from a zip.
  const storeManifest: Record<string, unknown> = { ...manifest, version };
  delete storeManifest.key;
  const files = filesUnder(out).map((file) =>
    file.path === 'manifest.json' ? { path: file.path, data: Buffer.from(`${JSON.stringify(storeManifest, null, 2)}\n`) } : file,
  );
  mkdirSync(packageDir, { recursive: true });
  const storeZip = join(packageDir, `demoshare-recorder-${version}-store.zip`);
  writeFileSync(storeZip, zipFiles(files));
  return { dir: out, storeZip };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const { dir, storeZip } = await buildExtension();
  console.log(`Built the recorder extension in ${relative(ROOT, dir)} and its store package ${relative(ROOT, storeZip)}`);
}
