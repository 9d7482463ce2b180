/**
 * Demo files over HTTP (docs/demo-format.md): export, import and push of a 20-step demo. bench/run.ts runs it
 * after the recording upload, on the demo that upload made (20 steps, each a ≈300 KB PNG screenshot and a
 * ≈200 KB page snapshot: what a recorded demo holds). Alone, against a running server:
 *
 *   node bin/run-ts.js bench/demo-file.ts <base-url> <api-key with demos:read demos:write> [demo-id]
 *
 * (without a demo id it records one first, as bench/recording-upload.ts does). Bounded: 3 exports, 3 imports
 * and 3 pushes of one demo; the demos the imports and pushes make stay in the server's database.
 */
import { performance } from 'node:perf_hooks';
import { benchRecordingUpload } from './recording-upload';

export interface DemoFileTimings {
  steps: number;
  zipBytes: number;
  /** Median of 3 exports of the draft. */
  exportMs: number;
  /** Median of 3 imports of that zip, each a new demo. */
  importMs: number;
  /** A push of the zip under a new key (creates the demo), then the same push twice (nothing changes), median. */
  pushCreateMs: number;
  pushUnchangedMs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Exports `demoId` three times, imports the zip three times and pushes it three times under a fresh key. */
export async function benchDemoFile(baseUrl: string, apiKey: string, demoId: string): Promise<DemoFileTimings> {
  const base = `${baseUrl.replace(/\/+$/, '')}/v1`;
  const authorization = `Bearer ${apiKey}`;
  async function timed(method: string, path: string, body?: Uint8Array) {
    const started = performance.now();
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization, ...(body ? { 'content-type': 'application/zip' } : {}) },
      body: body ? Buffer.from(body) : undefined,
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${new TextDecoder().decode(bytes.slice(0, 300))}`);
    return { ms: performance.now() - started, bytes };
  }

  const exports = [];
  for (let i = 0; i < 3; i++) exports.push(await timed('GET', `/demos/${demoId}/export`));
  const zip = exports[0]!.bytes;
  const imports = [];
  for (let i = 0; i < 3; i++) imports.push((await timed('POST', '/demos/import', zip)).ms);
  const key = `bench-${Date.now().toString(36)}`;
  const created = await timed('PUT', `/demos/by-key/${key}`, zip);
  const unchanged = [];
  for (let i = 0; i < 2; i++) {
    const again = await timed('PUT', `/demos/by-key/${key}`, zip);
    const outcome = (JSON.parse(new TextDecoder().decode(again.bytes)) as { data: { outcome: string } }).data.outcome;
    if (outcome !== 'unchanged') throw new Error(`a second push of the same file was ${outcome}`);
    unchanged.push(again.ms);
  }
  const steps = (JSON.parse(new TextDecoder().decode((await timed('GET', `/demos/${demoId}`)).bytes)) as { data: { step_count: number } }).data.step_count;
  return {
    steps,
    zipBytes: zip.length,
    exportMs: median(exports.map((e) => e.ms)),
    importMs: median(imports),
    pushCreateMs: created.ms,
    pushUnchangedMs: median(unchanged),
  };
}

/** One line of the bench's report. */
export function describeDemoFile(engine: string, t: DemoFileTimings): string {
  return (
    `${engine} demo file, ${t.steps} steps, zip ${(t.zipBytes / 1024 / 1024).toFixed(1)} MB: export ${t.exportMs.toFixed(0)} ms, ` +
    `import ${t.importMs.toFixed(0)} ms, push (new key) ${t.pushCreateMs.toFixed(0)} ms, push again (unchanged) ${t.pushUnchangedMs.toFixed(0)} ms`
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [baseUrl, apiKey, given] = process.argv.slice(2);
  if (!baseUrl || !apiKey) {
    console.error('Usage: node bin/run-ts.js bench/demo-file.ts <base-url> <api-key> [demo-id]');
    process.exit(2);
  }
  const demoId = given ?? (await benchRecordingUpload(baseUrl, apiKey, 20)).demoId;
  console.log(describeDemoFile('server', await benchDemoFile(baseUrl, apiKey, demoId)));
}
