// One render, start to end: Chromium plays the published demo in the real player, the overlay is moved frame by frame, JPEG frames go to ffmpeg.
import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM_BASE_ARGS } from '../generation/chromium';
import { startEncoder } from './ffmpeg';
import { installOverlay, RENDER_ORIGIN, type RenderSource, routeRenderPage, setOverlay, stepOnScreen } from './render-page';
import { along, type Point, planStep, stepFrames } from './render-timeline';
import type { RenderFormat } from './renders.tables';

export interface RenderRequest {
  chromiumPath: string;
  ffmpegPath: string;
  format: RenderFormat;
  width: number;
  height: number;
  paceMs: number;
  fps: number;
  accent: string;
  source: RenderSource;
  /** The file ffmpeg writes. */
  output: string;
  /** Aborting kills Chromium and ffmpeg at once and rejects with the signal's reason. */
  signal: AbortSignal;
  /** Frames written so far, of `total`. */
  onProgress(done: number, total: number): void;
}

/** {variable|fallback} as the viewer without link values sees it: the fallback. */
const filled = (text: string) => text.replace(/\{\{\s*[\w.-]+\s*(?:\|([^}]*))?\}\}/g, (_m, fallback: string | undefined) => (fallback ?? '').trim());

/** Runs `fn` in the page with `arg` (as source text: the bundler's helpers do not exist there). */
const run = <A, R>(page: Page, fn: (arg: A) => R, arg: A): Promise<R> => page.evaluate(`(${fn.toString()})(${JSON.stringify(arg)})`) as Promise<R>;

/**
 * Renders the demo: each step exactly `paceMs` long (so the video lasts steps × pace), the cursor gliding
 * from where it was to the step's hotspot, a hold with the highlight, a click, then the player moves on
 * (→, or a click on the target where → is not enough: a chapter menu, a form). Still stretches are one
 * screenshot written as many frames as they last.
 */
export async function renderDemo(r: RenderRequest): Promise<{ frames: number; durationMs: number }> {
  const steps = r.source.payload.steps;
  const total = stepFrames(steps.length - 1, r.paceMs, r.fps).start + stepFrames(steps.length - 1, r.paceMs, r.fps).count;
  let browser: Browser | null = null;
  const encoder = startEncoder({ ffmpeg: r.ffmpegPath, format: r.format, width: r.width, height: r.height, fps: r.fps, output: r.output });
  const abort = () => {
    encoder.kill();
    void browser?.close().catch(() => {});
  };
  r.signal.addEventListener('abort', abort, { once: true });
  const check = () => {
    if (r.signal.aborted) throw r.signal.reason instanceof Error ? r.signal.reason : new Error('cancelled');
  };
  try {
    browser = await chromium.launch({ executablePath: r.chromiumPath, args: [...CHROMIUM_BASE_ARGS, '--hide-scrollbars', '--mute-audio'] });
    check();
    const context = await browser.newContext({ viewport: { width: r.width, height: r.height }, deviceScaleFactor: 1, serviceWorkers: 'block' });
    await routeRenderPage(context, r.source);
    const page = await context.newPage();
    // esbuild names functions through a __name helper that the page does not have.
    await page.addInitScript('window.__name = (f) => f;');
    const cdp = await context.newCDPSession(page);
    const shoot = async () => {
      check();
      const { data } = (await cdp.send('Page.captureScreenshot', { format: 'jpeg', quality: 88, optimizeForSpeed: true })) as { data: string };
      return Buffer.from(data, 'base64');
    };
    await page.goto(`${RENDER_ORIGIN}/`, { waitUntil: 'load' });
    await run(page, installOverlay, { accent: r.accent, width: r.width, height: r.height });

    let written = 0;
    // One batch of frames goes to ffmpeg while the next screenshot is taken: capture and encoding overlap,
    // and the pipe's back-pressure still bounds what waits in memory to one batch.
    let writing: Promise<void> = Promise.resolve();
    const emit = async (frame: Buffer, times: number) => {
      const previous = writing;
      writing = previous.then(async () => {
        for (let i = 0; i < times; i++) {
          check();
          await encoder.write(frame);
        }
        written += times;
        r.onProgress(written, total);
      });
      writing.catch(() => {});
      await previous;
    };
    let cursor: Point = { x: Math.round(r.width / 2), y: Math.round(r.height / 2) };

    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      const shown = await page
        .waitForFunction(`(${stepOnScreen.toString()})(${JSON.stringify({ n: i + 1, total: steps.length })})`, undefined, { timeout: 15_000, polling: 50 })
        .then((handle) => handle.jsonValue() as Promise<{ target: { x: number; y: number; width: number; height: number } | null }>)
        .catch(() => ({ target: null }));
      check();
      // A snapshot step draws in a frame of its own: let it load before filming it.
      for (const frame of page.frames().slice(1)) await frame.waitForLoadState('load', { timeout: 5_000 }).catch(() => {});
      const spot = shown.target;
      const to = spot ? { x: Math.round(spot.x + spot.width / 2), y: Math.round(spot.y + spot.height / 2) } : null;
      // A story screen (cover, chapter menu, form, end) says its text in its own panel.
      const onPage = !step.kind || step.kind === 'page';
      const caption = onPage ? { title: filled(step.title ?? ''), text: filled(step.description ?? '') } : { title: '', text: '' };
      await run(page, setOverlay, { ...cursor, pressed: false, spot: null, caption });
      const { count } = stepFrames(i, r.paceMs, r.fps);
      for (const segment of planStep(count, cursor, to, r.fps, i === steps.length - 1)) {
        if (segment.kind === 'move') {
          for (let f = 1; f <= segment.frames; f++) {
            const at = along(segment.from, segment.to, f, segment.frames);
            await run(page, setOverlay, { ...at, pressed: false, spot: null });
            await emit(await shoot(), 1);
          }
          cursor = segment.to;
          // The real pointer too: the player shows the hotspot's tooltip on hover.
          await page.mouse.move(cursor.x, cursor.y);
          continue;
        }
        await run(page, setOverlay, { ...cursor, pressed: segment.pressed, spot: segment.highlight ? spot : null });
        await emit(await shoot(), segment.frames);
      }
      if (i + 1 < steps.length) await advance(page, i + 2, steps.length, to);
    }
    await writing;
    check();
    await encoder.finish();
    return { frames: written, durationMs: Math.round((written * 1000) / r.fps) };
  } catch (error) {
    encoder.kill();
    throw r.signal.aborted ? (r.signal.reason instanceof Error ? r.signal.reason : new Error('cancelled')) : error;
  } finally {
    r.signal.removeEventListener('abort', abort);
    await browser?.close().catch(() => {});
  }
}

/** Moves the player to step `n`: → first; a click on the target where → waits for a choice (menus, forms). */
async function advance(page: Page, n: number, total: number, target: Point | null) {
  const reached = () =>
    page
      .waitForFunction(`document.querySelector('.ds-count')?.textContent === ${JSON.stringify(`Step ${n} of ${total}`)}`, undefined, { timeout: 1_500, polling: 50 })
      .then(
        () => true,
        () => false,
      );
  await page.mouse.move(1, 1);
  // The player takes no arrow key while a field has the focus (a form's first field takes it).
  await page.evaluate('document.activeElement instanceof HTMLElement && document.activeElement.blur()');
  await page.keyboard.press('ArrowRight');
  if (await reached()) return;
  if (target) {
    await page.mouse.click(target.x, target.y);
    await reached();
  }
}
