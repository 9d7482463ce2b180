// Video and GIF renders, end to end: the real player in Chromium, frames through the system's ffmpeg, checked with ffprobe.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM } from './helpers/browser';
import { makeMockupPng } from './helpers/images';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

const run = promisify(execFile);
const ffprobe = async (file: string) => {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-count_frames', '-show_streams', '-show_format', '-of', 'json', file]);
  return JSON.parse(stdout) as {
    streams: Array<{ codec_name: string; width: number; height: number; pix_fmt: string; nb_read_frames: string }>;
    format: { duration: string; format_name: string };
  };
};
const hasFfmpeg = await run('ffmpeg', ['-version']).then(
  () => true,
  () => false,
);

type Render = { id: string; status: string; progress: number; duration_ms: number; file_url: string | null; size_bytes: number | null; error: string | null };

describe.skipIf(!CHROMIUM.path || !hasFfmpeg)('renders: MP4 and GIF of a published demo', () => {
  let t: TestApp;
  let key: string;
  let demoId: string;
  const dir = mkdtempSync(join(tmpdir(), 'renders-test-'));
  const keep = process.env.KEEP_RENDERS;
  const api = (method: string, url: string, payload?: object) =>
    t.app.inject({ method: method as 'GET', url: `/v1${url}`, headers: bearer(key), ...(payload ? { payload } : {}) });

  /** Polls the render until `done` holds (bounded by count). */
  async function waitFor(id: string, done: (r: Render) => boolean, attempts = 600): Promise<Render> {
    for (let i = 0; i < attempts; i++) {
      const r = (await api('GET', `/demos/${demoId}/renders/${id}`)).json().data as Render;
      if (done(r)) return r;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`render ${id} never reached the state`);
  }

  beforeAll(async () => {
    t = await createTestApp({ jobs: true, config: { RENDER_CONCURRENCY: 2 } });
    key = await t.apiKey('all');
    const demo = (await api('POST', '/demos', { title: 'Invoices tour', type: 'interactive' })).json().data as { id: string };
    demoId = demo.id;
    for (let i = 0; i < 3; i++) {
      const step = await t.app.inject({
        method: 'POST',
        url: `/v1/demos/${demoId}/steps`,
        headers: { ...bearer(key), 'content-type': 'image/png' },
        payload: makeMockupPng(1280, 800, [20 + i * 70, 120, 180]),
      });
      const stepId = step.json().data.id as string;
      await api('PATCH', `/demos/${demoId}/steps/${stepId}`, { title: `Step ${i + 1}`, description: `Open part ${i + 1} of the invoice.` });
      await api('POST', `/demos/${demoId}/steps/${stepId}/hotspots`, { x: 0.15 + i * 0.25, y: 0.3, width: 0.12, height: 0.08, label: `Click ${i + 1}` });
    }
  });

  afterAll(async () => {
    await t?.close();
    if (!keep) rmSync(dir, { recursive: true, force: true });
    else console.log(`renders kept in ${dir}`);
  });

  it('refuses what it cannot render, in the error envelope', async () => {
    const unpublished = await api('POST', `/demos/${demoId}/renders`, { format: 'mp4' });
    expect(unpublished.statusCode).toBe(409);
    expect(unpublished.json().error.code).toBe('conflict');
    expect((await api('PATCH', `/demos/${demoId}`, { status: 'published' })).statusCode).toBe(200);

    const odd = await api('POST', `/demos/${demoId}/renders`, { width: 641 });
    expect(odd.statusCode).toBe(400);
    expect(odd.json().error.details[0].field).toBe('width');
    const bigGif = await api('POST', `/demos/${demoId}/renders`, { format: 'gif', width: 1920, height: 1080 });
    expect(bigGif.statusCode).toBe(400);
    expect(bigGif.json().error.details.map((d: { field: string }) => d.field)).toEqual(['width', 'height']);
    expect((await api('POST', `/demos/${demoId}/renders`, { pace: 'glacial' })).statusCode).toBe(400);
    expect((await api('POST', `/demos/${demoId}/renders`, { format: 'webm' })).statusCode).toBe(400);
    expect((await api('GET', `/demos/${demoId}/renders/rnd_01jd3k7q9x8v2m4n6p0r5s7t9w`)).statusCode).toBe(404);
  });

  it('renders an MP4 (H.264, the size asked, steps × pace long) and a GIF of the right size', async () => {
    const mp4 = await api('POST', `/demos/${demoId}/renders`, { format: 'mp4', width: 640, height: 360, pace: 1000 });
    expect(mp4.statusCode).toBe(202);
    expect(mp4.json().data).toMatchObject({ status: 'queued', duration_ms: 3000, step_count: 3, fps: 20, file_url: null });
    const gif = await api('POST', `/demos/${demoId}/renders`, { format: 'gif', width: 480, height: 300, pace: 'fast' });
    expect(gif.statusCode).toBe(202);

    const video = await waitFor(mp4.json().data.id, (r) => ['succeeded', 'failed', 'cancelled'].includes(r.status));
    expect(video.error).toBeNull();
    expect(video.status).toBe('succeeded');
    const file = await api('GET', video.file_url!.slice(3));
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('video/mp4');
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename=".+\.mp4"$/);
    expect(file.rawPayload.length).toBe(video.size_bytes);
    writeFileSync(join(dir, 'v.mp4'), file.rawPayload);
    const probed = await ffprobe(join(dir, 'v.mp4'));
    expect(probed.streams[0]).toMatchObject({ codec_name: 'h264', width: 640, height: 360, pix_fmt: 'yuv420p' });
    expect(Number(probed.format.duration)).toBeGreaterThan(2.8);
    expect(Number(probed.format.duration)).toBeLessThan(3.2);
    expect(Number(probed.streams[0]!.nb_read_frames)).toBe(60);
    // faststart: the index (moov) comes before the media data (mdat).
    expect(file.rawPayload.indexOf('moov')).toBeLessThan(file.rawPayload.indexOf('mdat'));

    const done = await waitFor(gif.json().data.id, (r) => ['succeeded', 'failed', 'cancelled'].includes(r.status));
    expect(done.status).toBe('succeeded');
    const gifFile = await api('GET', done.file_url!.slice(3));
    expect(gifFile.headers['content-type']).toBe('image/gif');
    expect(gifFile.rawPayload.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    writeFileSync(join(dir, 'a.gif'), gifFile.rawPayload);
    const gifProbe = await ffprobe(join(dir, 'a.gif'));
    expect(gifProbe.streams[0]).toMatchObject({ codec_name: 'gif', width: 480, height: 300 });
    // 3 steps × 1.8 s at 10 fps: 54 frames (ffmpeg may merge identical ones in a GIF, never add any).
    expect(Number(gifProbe.streams[0]!.nb_read_frames)).toBeGreaterThan(3);
    expect(Number(gifProbe.streams[0]!.nb_read_frames)).toBeLessThanOrEqual(54);

    const list = (await api('GET', `/demos/${demoId}/renders`)).json();
    expect(list.meta.total).toBe(2);
    expect(list.data.map((r: Render) => r.id)).toEqual([gif.json().data.id, mp4.json().data.id]);
  });

  it('cancels a running render: Chromium and ffmpeg stop, no file is kept; deleting a finished one removes it', async () => {
    const asked = await api('POST', `/demos/${demoId}/renders`, { format: 'mp4', width: 1280, height: 720, pace: 15_000 });
    const id = asked.json().data.id as string;
    // Progress is written while it runs (this waits for it: a render that never reports fails here).
    await waitFor(id, (r) => r.status === 'running' && r.progress > 0);
    expect((await api('DELETE', `/demos/${demoId}/renders/${id}`)).statusCode).toBe(204);
    const running = t.ctx.services.renders.renders.context.running as unknown as { controllers: Map<string, AbortController> };
    // The job's work ends (its browser closed, ffmpeg killed): it leaves the in-flight registry.
    for (let i = 0; i < 100 && running.controllers.has(id); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(running.controllers.has(id)).toBe(false);
    const after = (await api('GET', `/demos/${demoId}/renders/${id}`)).json().data as Render;
    expect(after.status).toBe('cancelled');
    expect(after.progress).toBeLessThan(0.5);
    const { stdout } = await run('ps', ['-eo', 'args']);
    expect(stdout.split('\n').filter((l) => l.includes('demoshare-render-') && l.includes('ffmpeg'))).toEqual([]);
    expect((await api('GET', `/demos/${demoId}/renders/${id}/file`)).statusCode).toBe(409);

    expect((await api('DELETE', `/demos/${demoId}/renders/${id}`)).statusCode).toBe(204);
    expect((await api('GET', `/demos/${demoId}/renders/${id}`)).statusCode).toBe(404);
  });

  it('answers 503 ffmpeg_missing when the server has no ffmpeg', async () => {
    const other = await createTestApp({ database: t.db, config: { FFMPEG_PATH: '/nonexistent/ffmpeg' } });
    try {
      const res = await other.app.inject({
        method: 'POST',
        url: `/v1/demos/${demoId}/renders`,
        headers: bearer(key),
        payload: { format: 'gif', width: 320, height: 240 },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe('ffmpeg_missing');
      expect(res.json().error.message).toMatch(/FFMPEG_PATH=\/nonexistent\/ffmpeg/);
    } finally {
      await other.close();
    }
  });
});
