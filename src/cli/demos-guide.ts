// `demoshare demos guide ID --out PATH`: a demo's written guide (docs/guides.md) from an instance's HTTP API into a folder of a docs repository, or a PDF file.
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { unzipSync } from 'fflate';
import { ApiError, apiClientFrom } from './api-client';

type Out = { stdout: (s: string) => void; stderr: (s: string) => void };

export const DEMOS_GUIDE_USAGE = `Usage: demoshare demos guide ID --out PATH [--format markdown|pdf] [--version draft|published]

Writes the demo's written guide (docs/guides.md). markdown (default): guide.md and images/ into the folder
PATH, images the guide no longer names removed, so a commit shows what changed. pdf: the PDF into the file
PATH (into an existing folder under the name the server gives). --version: draft (default) or published.
--url URL (or DEMOSHARE_URL) and --token TOKEN (or DEMOSHARE_TOKEN), an API key with demos:read.
Exit status: 0 written, 1 refused or failed (the reason on stderr), 2 wrong usage.`;

/** A picture of a guide: images/NN-<slug>.png, as the server names them. */
const IMAGE_FILE = /^[0-9]{2,4}-[a-z0-9-]+\.png$/;

/**
 * Runs `demos guide`; returns the exit status.
 *
 * @example
 * await demosGuideCommand(['demo_01j…', '--out', 'docs/help/invoicing'], { DEMOSHARE_URL: 'https://demos.example.com', DEMOSHARE_TOKEN: 'dsk_…' }, console); // 0
 */
export async function demosGuideCommand(args: string[], env: NodeJS.ProcessEnv, out: Out): Promise<number> {
  let values: { out?: string; format?: string; version?: string; url?: string; token?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        out: { type: 'string' },
        format: { type: 'string' },
        version: { type: 'string' },
        url: { type: 'string' },
        token: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    out.stderr(`${(error as Error).message}\n\n${DEMOS_GUIDE_USAGE}`);
    return 2;
  }
  if (values.help) {
    out.stdout(DEMOS_GUIDE_USAGE);
    return 0;
  }
  const format = values.format ?? 'markdown';
  const problem =
    positionals.length !== 1
      ? 'Give one demo id.'
      : !values.out
        ? 'Give where to write with --out PATH.'
        : format !== 'markdown' && format !== 'pdf'
          ? `--format ${format}: give markdown or pdf.`
          : undefined;
  if (problem) {
    out.stderr(`${problem}\n\n${DEMOS_GUIDE_USAGE}`);
    return 2;
  }
  const api = apiClientFrom(values, { ...env, DEMOSHARE_TOKEN: env.DEMOSHARE_TOKEN ?? env.DEMOSHARE_API_KEY });
  if (typeof api === 'string') {
    out.stderr(api);
    return 2;
  }
  const query = new URLSearchParams({ format, version: values.version ?? 'draft' });
  const target = values.out!;
  try {
    const response = await api.request('GET', `/demos/${encodeURIComponent(positionals[0]!)}/export/guide?${query}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const steps = response.headers.get('x-guide-steps') ?? '?';
    if (format === 'pdf') {
      const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'guide.pdf';
      const isFolder = await stat(target).then((s) => s.isDirectory(), () => false);
      const file = isFolder ? join(target, name) : target;
      await writeFile(file, bytes);
      out.stdout(`Wrote the guide (${steps} steps, PDF) to ${file}`);
      return 0;
    }
    const files = unzipSync(bytes);
    await mkdir(join(target, 'images'), { recursive: true });
    const fresh = new Set(Object.keys(files).filter((n) => n.startsWith('images/')).map((n) => n.slice('images/'.length)));
    for (const name of await readdir(join(target, 'images'))) {
      if (IMAGE_FILE.test(name) && !fresh.has(name)) await rm(join(target, 'images', name));
    }
    for (const [name, content] of Object.entries(files)) {
      if (name === 'guide.md' || (name.startsWith('images/') && IMAGE_FILE.test(name.slice('images/'.length)))) {
        await writeFile(join(target, name), content);
      }
    }
    out.stdout(`Wrote the guide (${steps} steps, ${fresh.size} image${fresh.size === 1 ? '' : 's'}) to ${join(target, 'guide.md')}`);
    return 0;
  } catch (error) {
    out.stderr(error instanceof ApiError ? error.describe() : `Error: ${(error as Error).message}`);
    return 1;
  }
}
