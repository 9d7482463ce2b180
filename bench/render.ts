/**
 * `npm run bench:render [-- --steps 20 --runs 1]`
 *
 * Wall time of rendering a published demo of `steps` screenshot steps (1280×800 each, one hotspot each) to
 * an MP4 at 1280×720, pace `normal` (3 s a step), and to a GIF at 800×450, pace `fast`, through the real
 * job (the app in-process on PGlite, Chromium and the system's ffmpeg), from POST to `succeeded`. Prints a
 * table (and the file sizes) and writes bench/results/render-latest.json. Too slow for `npm run bench`'s
 * loop, so it is a script of its own.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { makeMockupPng } from '../test/helpers/images';
import { bearer, createTestApp } from '../test/helpers/test-app';

const { values: args } = parseArgs({ options: { steps: { type: 'string', default: '20' }, runs: { type: 'string', default: '1' } } });
const steps = Number(args.steps);
const runs = Math.max(1, Number(args.runs));

const t = await createTestApp({ jobs: true, contract: false });
const key = await t.apiKey('all');
const api = (method: string, url: string, payload?: object) =>
  t.app.inject({ method: method as 'GET', url: `/v1${url}`, headers: bearer(key), ...(payload ? { payload } : {}) });

const demoId = (await api('POST', '/demos', { title: `A ${steps}-step tour`, type: 'interactive' })).json().data.id as string;
for (let i = 0; i < steps; i++) {
  const step = await t.app.inject({
    method: 'POST',
    url: `/v1/demos/${demoId}/steps`,
    headers: { ...bearer(key), 'content-type': 'image/png' },
    payload: makeMockupPng(1280, 800, [(i * 37) % 200, 120, 180]),
  });
  const stepId = step.json().data.id as string;
  await api('PATCH', `/demos/${demoId}/steps/${stepId}`, { title: `Step ${i + 1}`, description: `Open part ${i + 1}: what it does for you.` });
  await api('POST', `/demos/${demoId}/steps/${stepId}/hotspots`, { x: 0.1 + ((i * 0.17) % 0.75), y: 0.15 + ((i * 0.29) % 0.7), width: 0.12, height: 0.08, label: `Click ${i + 1}` });
}
await api('PATCH', `/demos/${demoId}`, { status: 'published' });

interface Row {
  case: string;
  seconds: number;
  video_seconds: number;
  bytes: number;
  realtime: number;
}
const rows: Row[] = [];
const cases = [
  { case: `mp4 1280×720 normal, ${steps} steps`, body: { format: 'mp4', width: 1280, height: 720, pace: 'normal' } },
  { case: `gif 800×450 fast, ${steps} steps`, body: { format: 'gif', width: 800, height: 450, pace: 'fast' } },
];
for (const c of cases) {
  for (let r = 0; r < runs; r++) {
    const started = performance.now();
    const asked = await api('POST', `/demos/${demoId}/renders`, c.body);
    if (asked.statusCode !== 202) throw new Error(`render: ${asked.statusCode} ${asked.body}`);
    const id = asked.json().data.id as string;
    let render: { status: string; duration_ms: number; size_bytes: number; error: string | null };
    for (;;) {
      render = (await api('GET', `/demos/${demoId}/renders/${id}`)).json().data;
      if (!['queued', 'running'].includes(render.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (render.status !== 'succeeded') throw new Error(`render ${render.status}: ${render.error}`);
    const seconds = (performance.now() - started) / 1000;
    rows.push({ case: c.case, seconds: +seconds.toFixed(1), video_seconds: render.duration_ms / 1000, bytes: render.size_bytes, realtime: +(render.duration_ms / 1000 / seconds).toFixed(2) });
  }
}
await t.close();

console.table(rows);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/render-latest.json', `${JSON.stringify({ at: new Date().toISOString(), load: loadavg(), rows }, null, 2)}\n`);
