// What the translations services are built from, and the demo's text as units (draft or live version).
import type { AiSettingsFor } from '../ai/ai.service';
import { TaggedCache } from '../core/cache';
import type { Changes } from '../core/changes';
import type { Clock } from '../core/clock';
import { notFound } from '../core/errors';
import type { Database } from '../db/client';
import type { DemoContent } from '../demos/demo-snapshot';
import type { DemoReader } from '../demos/demos.reader';
import type { DocumentPool } from '../document-tasks';
import { type SourceUnit, unitsOf } from './translation-units';

export interface TranslationsDeps {
  db: Database['db'];
  clock: Clock;
  changes: Pick<Changes, 'announce'>;
  demos: Pick<DemoReader, 'find' | 'draft' | 'published' | 'asset'>;
  /** The document workers: page texts, files and translated pages are parsed and written there. */
  documents: Pick<DocumentPool, 'run'>;
  /** The model a workspace writes with (the ai module's), for machine translation. */
  settingsFor: AiSettingsFor;
}

export type DemoText = { content: DemoContent; units: SourceUnit[] };

/**
 * The demo's text as units, the draft's or the live version's: page texts are read from the HTML snapshots in
 * a document worker, once per snapshot (kept by digest: an asset never changes).
 */
export function createDemoTexts(deps: Pick<TranslationsDeps, 'demos' | 'documents'>) {
  const pageCache = new TaggedCache<Promise<string[]>>(30 * 60_000, 500);

  async function pagesOf(content: DemoContent) {
    const pages = new Map<string, string[]>();
    for (const step of content.steps) {
      if (!step.htmlAssetId) continue;
      const asset = await deps.demos.asset(content.demo.id, step.htmlAssetId);
      if (!asset?.contentType.startsWith('text/html')) continue;
      let texts = pageCache.get(asset.sha256);
      if (!texts) {
        texts = deps.documents.run('pageTexts', [asset.bytes.toString('utf8')], { field: 'file', what: 'A captured page' });
        pageCache.set(asset.sha256, texts);
        texts.catch(() => pageCache.delete(asset.sha256));
      }
      pages.set(step.id, await texts);
    }
    return pages;
  }

  /** The draft's text; 404 for a demo outside the workspace. */
  async function draft(workspaceId: string, demoId: string): Promise<DemoText> {
    const found = await deps.demos.draft(workspaceId, demoId);
    if (!found) throw notFound('Demo');
    return { content: found, units: unitsOf(found, await pagesOf(found)) };
  }

  /** The live version's text; undefined for a demo never published. */
  async function published(workspaceId: string, demoId: string): Promise<DemoText | undefined> {
    const found = await deps.demos.published(workspaceId, demoId);
    if (!found) return undefined;
    return { content: found, units: unitsOf(found, await pagesOf(found)) };
  }

  return { draft, published };
}

export type DemoTexts = ReturnType<typeof createDemoTexts>;
