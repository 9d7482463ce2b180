import type { Kernel } from '../../src/context';
import { runGeneration } from '../../src/demos/demos.jobs';
import type { GenerateDemo } from '../../src/demos/demos.generator';
import type { GenerationResult } from '../../src/generation/generation.types';
import { makePng } from './images';
import { bearer, type TestApp } from './test-app';

/** A deterministic generator: `pages` steps of a fixed page, each with a PNG and two hotspots. */
export function fixtureGenerator(pages = 3, title = 'Acme pricing'): GenerateDemo {
  return async (options) => fixtureResult(options.url, pages, title);
}

export function fixtureResult(url: string, pages: number, title: string): GenerationResult {
  return {
    captureMode: 'html',
    writer: 'builtin',
    title,
    warnings: [],
    pages: [url],
    steps: Array.from({ length: pages }, (_, i) => ({
      title: `Step ${i + 1} of ${title}`,
      description: `Look at part ${i + 1}.`,
      pageUrl: `${url}#${i + 1}`,
      image: { data: makePng(40, 20, [i * 40, 100, 200]), contentType: 'image/png' as const, width: 40, height: 20 },
      html: `<html><body><h1>Page ${i + 1}</h1></body></html>`,
      width: 40,
      height: 20,
      hotspots: [
        { x: 0.1, y: 0.1, width: 0.2, height: 0.2, selector: 'h1', label: 'Heading', tooltip: 'Read this', action: { type: 'next' as const } },
        // Deliberately spills over the edge: the demos module clips it.
        { x: 0.9, y: 0.5, width: 0.5, height: 0.2, selector: 'a', label: 'Back', tooltip: 'Start over', action: { type: 'goto' as const, target: 1 } },
      ],
    })),
  };
}

/** A generator that waits until released: lets a test look at (or interrupt) a generation in flight. */
export function blockingGenerator(result: () => GenerationResult | Promise<GenerationResult>) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let calls = 0;
  const generator: GenerateDemo = async () => {
    calls++;
    await gate;
    return result();
  };
  return { generator, release: () => release(), calls: () => calls };
}

/** Polls GET /v1/demos/:id until `done` holds (bounded by count, not by a timing assertion). */
export async function waitForDemo(
  t: Pick<TestApp, 'app'>,
  key: string,
  id: string,
  done: (demo: Record<string, unknown> & { status: string; generation: { status: string } }) => boolean,
  attempts = 300,
) {
  for (let i = 0; i < attempts; i++) {
    const res = await t.app.inject({ method: 'GET', url: `/v1/demos/${id}`, headers: bearer(key) });
    const demo = res.json().data;
    if (demo && done(demo)) return demo;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`demo ${id} never reached the expected state`);
}

/**
 * Runs the generation queued for `demoId` here and now, as the job pg-boss holds for it (a run under any
 * other job id is a superseded one, and is refused).
 */
export async function runQueuedGeneration(ctx: Kernel, demoId: string): Promise<void> {
  const { rows } = await ctx.database.executeSql('select generation_job_id from demos where id = $1', [demoId]);
  const jobId = rows[0]?.generation_job_id;
  if (typeof jobId !== 'string') throw new Error(`demo ${demoId} has no queued generation`);
  await runGeneration(ctx, { demoId, replaceTitle: true }, jobId);
}
