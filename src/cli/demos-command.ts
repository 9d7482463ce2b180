// `demoshare demos export|import|push`: demo files between a folder and an instance, over its HTTP API (docs/demo-format.md).
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { unzipSync, zipSync } from 'fflate';
import { type ApiClient, ApiError, apiClientFrom } from './api-client';
import { demosCheckCommand } from './demos-check';
import { demosGuideCommand } from './demos-guide';

type Out = { stdout: (s: string) => void; stderr: (s: string) => void };

export const DEMOS_USAGE = `Usage: demoshare demos <command> [options]

Commands:
  export ID --out DIR [--version draft|published|N]
                        write the demo's demo file into DIR (demo.json and assets/), replacing the assets there
  import DIR            make a new demo from the demo file in DIR; prints its id
  push DIR [--publish] [--key KEY] [--dry-run]
                        create or update the demo with the key in DIR/demo.json (or KEY); prints what changed.
                        A second push of the same folder changes nothing. --publish publishes it too.
                        --dry-run checks everything and prints what the push would do, changing nothing.
  check ID [--no-wait] [--timeout 5m]
                        capture the demo's pages again and compare each step (docs/stale-check.md): exit 0 when
                        every step matches, 1 on drift, 2 on an error (demoshare demos check --help)
  guide ID --out PATH [--format markdown|pdf] [--version draft|published]
                        write the demo's written guide: guide.md and images/ into PATH, or a PDF (docs/guides.md)

Every command talks to an instance: --url URL (or DEMOSHARE_URL) and --token TOKEN (or DEMOSHARE_TOKEN),
an API key or OAuth access token with demos:read (export) or demos:write (import, push).
Exit status: 0 done, 1 refused or failed (the reasons on stderr), 2 wrong usage.`;

const COMMON = { url: { type: 'string' }, token: { type: 'string' } } as const;
const ASSET_FILE = /^[0-9a-f]{64}\.[a-z0-9]{1,8}$/;

class Usage extends Error {}

function parse<T extends Record<string, { type: 'string' | 'boolean' }>>(args: string[], spec: T) {
  try {
    return parseArgs({ args, options: { ...COMMON, ...spec }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new Usage((error as Error).message);
  }
}

function clientOf(values: { url?: string; token?: string }, env: NodeJS.ProcessEnv): ApiClient {
  const client = apiClientFrom(values, { ...env, DEMOSHARE_TOKEN: env.DEMOSHARE_TOKEN ?? env.DEMOSHARE_API_KEY });
  if (typeof client === 'string') throw new Usage(client);
  return client;
}

function onePositional(positionals: string[], what: string): string {
  if (positionals.length !== 1) throw new Usage(`Give one ${what}.`);
  return positionals[0]!;
}

/** demo.json and assets/* of a folder, zipped as the API takes them (asset files only by their digest names). */
async function zipFolder(dir: string): Promise<{ zip: Uint8Array; document: { key?: unknown; title?: unknown } }> {
  let json: Buffer;
  try {
    json = await readFile(join(dir, 'demo.json'));
  } catch {
    throw new Usage(`${join(dir, 'demo.json')} does not exist: give the folder of a demo file.`);
  }
  let document: { key?: unknown; title?: unknown } = {};
  try {
    document = JSON.parse(json.toString('utf8'));
  } catch {
    // The server names what is wrong with it.
  }
  const files: Record<string, [Uint8Array, { level: 0 | 6 }]> = { 'demo.json': [json, { level: 6 }] };
  const names = await readdir(join(dir, 'assets')).catch(() => [] as string[]);
  for (const name of names.filter((n) => ASSET_FILE.test(n)).sort()) {
    files[`assets/${name}`] = [await readFile(join(dir, 'assets', name)), { level: name.endsWith('.html') ? 6 : 0 }];
  }
  return { zip: zipSync(files), document };
}

async function exportCommand(args: string[], env: NodeJS.ProcessEnv, out: Out) {
  const { values, positionals } = parse(args, { out: { type: 'string' }, version: { type: 'string' } });
  const id = onePositional(positionals, 'demo id');
  if (!values.out) throw new Usage('Give the folder to write into with --out DIR.');
  const api = clientOf(values, env);
  const version = values.version ?? 'draft';
  const zip = await api.bytes('GET', `/demos/${encodeURIComponent(id)}/export?version=${encodeURIComponent(version)}`);
  const files = unzipSync(zip);
  const dir = values.out;
  await mkdir(join(dir, 'assets'), { recursive: true });
  // The folder mirrors the demo: assets it no longer names go, so that a commit shows exactly what changed.
  const fresh = new Set(Object.keys(files).filter((n) => n.startsWith('assets/')).map((n) => n.slice('assets/'.length)));
  for (const name of await readdir(join(dir, 'assets'))) {
    if (ASSET_FILE.test(name) && !fresh.has(name)) await rm(join(dir, 'assets', name));
  }
  for (const [name, bytes] of Object.entries(files)) {
    if (name !== 'demo.json' && !(name.startsWith('assets/') && ASSET_FILE.test(name.slice(7)))) continue;
    await writeFile(join(dir, name), bytes);
  }
  const doc = JSON.parse(new TextDecoder().decode(files['demo.json']!)) as { title: string; key?: string; steps: unknown[] };
  out.stdout(
    `Exported "${doc.title}" (${doc.steps.length} step${doc.steps.length === 1 ? '' : 's'}, ${fresh.size} asset${fresh.size === 1 ? '' : 's'}` +
      `${doc.key ? `, key ${doc.key}` : ''}) to ${dir}`,
  );
  return 0;
}

async function importCommand(args: string[], env: NodeJS.ProcessEnv, out: Out) {
  const { values, positionals } = parse(args, {});
  const dir = onePositional(positionals, 'folder');
  const api = clientOf(values, env);
  const { zip } = await zipFolder(dir);
  const answer = await api.json<{ data: { id: string; title: string; step_count?: number } }>('POST', '/demos/import', { bytes: zip, type: 'application/zip' });
  out.stdout(answer.data.id);
  out.stderr(`Imported "${answer.data.title}" as ${answer.data.id}.`);
  return 0;
}

async function pushCommand(args: string[], env: NodeJS.ProcessEnv, out: Out) {
  const { values, positionals } = parse(args, { publish: { type: 'boolean' }, key: { type: 'string' }, 'dry-run': { type: 'boolean' } });
  const dir = onePositional(positionals, 'folder');
  const api = clientOf(values, env);
  const { zip, document } = await zipFolder(dir);
  const key = values.key ?? (typeof document.key === 'string' ? document.key : undefined);
  if (!key) throw new Usage(`${join(dir, 'demo.json')} has no "key": add one (e.g. "key": "onboarding") or give --key.`);
  const query = new URLSearchParams({ publish: values.publish ? 'true' : 'false', dry_run: values['dry-run'] ? 'true' : 'false' });
  const answer = await api.json<{
    data: { demo_id: string; outcome: 'created' | 'updated' | 'unchanged'; changes: string[]; published_version: number | null };
  }>('PUT', `/demos/by-key/${encodeURIComponent(key)}?${query}`, { bytes: zip, type: 'application/zip' });
  const r = answer.data;
  const dry = values['dry-run'] === true;
  const what =
    r.outcome === 'created'
      ? dry
        ? 'would be created'
        : `created ${r.demo_id}`
      : r.outcome === 'updated'
        ? `${dry ? 'would update' : 'updated'} ${r.demo_id}: ${r.changes.join(', ')}`
        : `unchanged ${r.demo_id}`;
  const published = r.published_version !== null ? `; ${dry ? 'would publish' : 'published'} version ${r.published_version}` : '';
  out.stdout(`${key}: ${what}${published}`);
  return 0;
}

/** Runs `demoshare demos <command> ...` and answers the exit status. */
export async function demosCommand(args: string[], env: NodeJS.ProcessEnv, out: Out): Promise<number> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case 'export':
        return await exportCommand(rest, env, out);
      case 'import':
        return await importCommand(rest, env, out);
      case 'push':
        return await pushCommand(rest, env, out);
      case 'check':
        return await demosCheckCommand(rest, env, out);
      case 'guide':
        return await demosGuideCommand(rest, env, out);
      case undefined:
      case 'help':
      case '--help':
        out.stdout(DEMOS_USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new Usage(`Unknown demos command "${command}".`);
    }
  } catch (error) {
    if (error instanceof Usage) {
      out.stderr(`${error.message}\n\n${DEMOS_USAGE}`);
      return 2;
    }
    if (error instanceof ApiError) {
      out.stderr(error.describe());
      return 1;
    }
    throw error;
  }
}
