import { readdir, readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { z } from 'zod';

export const CORPUS_DIR = join(import.meta.dirname, '..', 'test', 'fixtures', 'corpus');

const Place = z.object({ page: z.string().startsWith('/'), selector: z.string().min(1) });
const Target = Place.extend({
  role: z.string().min(1),
  names: z.array(z.string().min(1)).min(1),
  /** Names a step on this target must all say (every plan of a pricing table, every feature): the text rubric's "names kept". */
  keep: z.array(z.string().min(1)).optional(),
});
const Avoid = Place.extend({ why: z.string().min(1) });
const Expected = z.object({
  name: z.string(),
  kind: z.string(),
  modes: z.array(z.enum(['chromium', 'html'])).default(['chromium', 'html']),
  spa: z.boolean().default(false),
  targets: z.array(Target).min(1),
  avoid: z.array(Avoid).default([]),
  /** Words no step may say: people's names from a team grid, placeholder items left in the page, claims the site does not make. */
  never: z.array(z.string().min(1)).optional(),
});

export type Target = z.infer<typeof Target>;
export type Avoid = z.infer<typeof Avoid>;
export type Expected = z.infer<typeof Expected>;

/** One site of the corpus: its folder name and what a good tour of it points at. */
export interface CorpusSite {
  id: string;
  dir: string;
  expected: Expected;
}

/** Every site of the corpus (a folder with an expected.json), by name. */
export async function loadCorpus(dir = CORPUS_DIR): Promise<CorpusSite[]> {
  const sites: CorpusSite[] = [];
  for (const id of (await readdir(dir)).sort()) {
    const file = join(dir, id, 'expected.json');
    const exists = await stat(file).then(
      () => true,
      () => false,
    );
    if (!exists) continue;
    const parsed = Expected.safeParse(JSON.parse(await readFile(file, 'utf8')));
    if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
    // "/about/" and "/about" are one page, as the generator's addresses are compared (pagePath).
    const expected = parsed.data;
    for (const place of [...expected.targets, ...expected.avoid]) place.page = pagePath(place.page);
    sites.push({ id, dir: join(dir, id), expected });
  }
  return sites;
}

/** The page path a target names for a captured address: /index.html and / are one page. */
export function pagePath(url: string): string {
  const path = new URL(url, 'http://site.invalid').pathname.replace(/\/index\.html?$/, '/');
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
};

export interface CorpusServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * A site's folder served on 127.0.0.1 as a plain static host would: /x/ serves x/index.html, an unknown
 * path is a 404, except on single-page apps, where it serves index.html (their script routes by path).
 */
export async function serveSite(site: CorpusSite): Promise<CorpusServer> {
  const root = normalize(site.dir + sep);
  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://site').pathname);
    let file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    if (!extname(file) && (await isFile(`${file}.html`))) file = `${file}.html`;
    if (!(await isFile(file))) {
      if (site.expected.spa && !extname(path)) file = join(root, 'index.html');
      else {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
        return;
      }
    }
    const body = await readFile(file);
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The source a page of the site is served from, as `serveSite` maps addresses to files (`/x/` is
 * x/index.html, `/x` is x.html); a single-page app's pages are its index.html and its scripts, which
 * write the page. Empty when no file serves it.
 */
export async function pageSource(site: CorpusSite, path: string): Promise<string> {
  if (site.expected.spa) {
    const files = await readdir(site.dir, { recursive: true });
    const scripts = await Promise.all(files.filter((f) => /\.m?js$/.test(f)).map((f) => readFile(join(site.dir, f), 'utf8')));
    return [await readFile(join(site.dir, 'index.html'), 'utf8'), ...scripts].join('\n');
  }
  const root = normalize(site.dir + sep);
  const candidates = path.endsWith('/') ? [`${path}index.html`] : [path, `${path}.html`, `${path}/index.html`];
  for (const candidate of candidates) {
    const file = normalize(join(root, decodeURIComponent(candidate)));
    if (file.startsWith(root) && (await isFile(file))) return readFile(file, 'utf8');
  }
  return '';
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}
