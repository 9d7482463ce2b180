// The written guide of a demo: its draft or published content as guide.md + marked images (a zip), or as a PDF printed by Chromium.
import { zipSync } from 'fflate';
import type { AuthContext } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { AppError, conflict } from '../core/errors';
import type { DemoContent } from '../demos/demo-snapshot';
import { DEFAULT_CONFIGURATION, resolveConfiguration } from '../demos/demo-configuration.schemas';
import type { DemoReader } from '../demos/demos.reader';
import type { DemosService } from '../demos/demos.service';
import { guideHtml } from './guide-html';
import { guideMarkdown, plainTitle } from './guide-markdown';
import { buildGuide, type Guide, slugOf } from './guide-model';
import type { GuidePrinter } from './guide-print-pool';
import { noChromium } from './guide-printer';
import { markPicture } from './mark-hotspot';

export type GuideFormat = 'markdown' | 'pdf';
export type GuideVersion = 'draft' | 'published';

/** Guides of more steps than this are refused (413): a help-centre article is far shorter, and each picture costs work. */
export const GUIDE_MAX_STEPS = 300;
/** Pictures marked at once in the whole process (each holds a decoded screenshot in memory while it is drawn). */
export const GUIDE_IMAGE_CONCURRENCY = 4;

export interface GuidesDeps {
  demos: Pick<DemosService, 'get'>;
  reader: Pick<DemoReader, 'published' | 'asset'>;
  printer: GuidePrinter;
  clock: Clock;
}

export interface GuideFile {
  filename: string;
  contentType: string;
  bytes: Buffer;
  steps: number;
}

const COLOR = /^#[0-9a-fA-F]{6}$/;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * Exports a demo as a written guide.
 *
 * @example
 * ```ts
 * const guides = createGuidesService({ demos: services.demos, reader: services.reader, printer, clock });
 * const { filename, bytes } = await guides.export(auth, 'demo_01j…', 'markdown', 'published'); // a zip
 * ```
 */
export function createGuidesService(deps: GuidesDeps) {
  const marking = limiter(GUIDE_IMAGE_CONCURRENCY);

  /** The content to write the guide from, and how to name its version. 404 outside the workspace; 409 without steps or a published version. */
  async function load(auth: AuthContext, id: string, version: GuideVersion) {
    const draft = await deps.demos.get(auth, id);
    const accentOf = (configuration: Record<string, unknown>) => {
      const color = resolveConfiguration(configuration, draft.brandColor).theme_color;
      return COLOR.test(color) ? color : DEFAULT_CONFIGURATION.theme_color;
    };
    if (version === 'published') {
      const published = await deps.reader.published(auth.workspaceId, id);
      if (!published) {
        throw conflict('This demo has never been published: export the draft (version=draft), or publish the demo first');
      }
      return { content: published as DemoContent, versionLabel: `Published version ${published.version}`, accent: accentOf(published.demo.configuration) };
    }
    const content: DemoContent = { demo: draft.demo, steps: draft.steps, hotspots: draft.hotspots, chapters: draft.chapters };
    return { content, versionLabel: 'Draft', accent: accentOf(draft.demo.configuration) };
  }

  async function pictures(demoId: string, guide: Guide) {
    const files = new Map<string, { contentType: string; bytes: Buffer }>();
    await Promise.all(
      guide.steps.map(async (step) => {
        const picture = step.picture;
        if (!picture) return;
        const asset = await deps.reader.asset(demoId, picture.assetId);
        if (!asset?.contentType.startsWith('image/')) {
          delete step.picture;
          return;
        }
        const boxes = picture.hotspots.map((h) => ({ n: h.n, ...h.box }));
        const marked = await marking(() => markPicture(Buffer.from(asset.bytes), boxes, guide.accent, boxes.length > 1));
        files.set(picture.file, { contentType: 'image/png', bytes: marked.png });
      }),
    );
    return files;
  }

  async function exportGuide(auth: AuthContext, id: string, format: GuideFormat, version: GuideVersion): Promise<GuideFile> {
    const { content, versionLabel, accent } = await load(auth, id, version);
    const guide = buildGuide(content, accent);
    if (content.steps.length === 0) {
      throw conflict(
        version === 'draft' ? 'This demo has no steps yet: add steps before exporting a guide' : 'The published version has no steps to write a guide from',
      );
    }
    if (guide.steps.length > GUIDE_MAX_STEPS) {
      throw new AppError('payload_too_large', `A guide has at most ${GUIDE_MAX_STEPS} steps; this demo has ${guide.steps.length}`, {
        details: [{ field: 'steps', message: `must be at most ${GUIDE_MAX_STEPS} for a guide` }],
      });
    }
    if (format === 'pdf' && !deps.printer.available()) throw noChromium();
    const now = deps.clock.now();
    const base = `${slugOf(plainTitle(guide), 60)}-guide`;
    const files = await pictures(id, guide);
    if (format === 'markdown') {
      const header = `Exported from Demoshare: demo ${id}, ${versionLabel.toLowerCase()}, ${now.toISOString()}`;
      const entries: Record<string, [Uint8Array, { level: 0 | 6; mtime: Date }]> = {
        'guide.md': [Buffer.from(guideMarkdown(guide, header)), { level: 6, mtime: now }],
      };
      // PNGs are compressed already: stored as they are, the zip costs a checksum, not a second compression.
      for (const [name, file] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) entries[name] = [file.bytes, { level: 0, mtime: now }];
      return { filename: `${base}.zip`, contentType: 'application/zip', bytes: Buffer.from(zipSync(entries)), steps: guide.steps.length };
    }
    const date = `${now.getUTCDate()} ${MONTHS[now.getUTCMonth()]} ${now.getUTCFullYear()}`;
    const html = guideHtml(guide, { versionLabel, date });
    const pdf = await deps.printer.print({ html, files, footer: plainTitle(guide) });
    return { filename: `${base}.pdf`, contentType: 'application/pdf', bytes: pdf, steps: guide.steps.length };
  }

  /** The printable page itself, for looking at a guide before it is printed (tests, the bench). */
  async function html(auth: AuthContext, id: string, version: GuideVersion) {
    const { content, versionLabel, accent } = await load(auth, id, version);
    const guide = buildGuide(content, accent);
    return { html: guideHtml(guide, { versionLabel, date: 'today' }), files: await pictures(id, guide) };
  }

  return { export: exportGuide, html };
}

export type GuidesService = ReturnType<typeof createGuidesService>;

/** At most `n` of the functions given run at once; the others wait in order. */
function limiter(n: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    // A finishing task hands its place to the next in line, so nobody slips in between.
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
