// What viewers get of translations: a published version's reviewed languages, its text in one of them, its pages translated.
import { TaggedCache } from '../core/cache';
import { sha256Hex } from '../core/crypto';
import type { Executor } from '../db/client';
import type { DemoContent } from '../demos/demo-snapshot';
import { patchesHash, patchImageIds } from '../demos/page-patches';
import type { PagePatch } from '../demos/story.schemas';
import { currentTargets, type PageTranslation, translateContent, unitsOf } from './translation-units';
import type { TranslationsDeps } from './translations-context';
import * as repo from './translations.repo';

/**
 * The viewing module's port on translations: which languages a demo offers viewers (reviewed ones), the
 * published content in one of them (units whose source changed since show the original), and captured pages
 * with their texts translated, parsed in a document worker and kept (by asset, texts, patches and address).
 *
 * @example
 * const forViewers = createTranslationsForViewers(deps);
 * const { languages, sourceLang } = await forViewers.languages(demoId); // { languages: ['fr'], sourceLang: 'en' }
 * const fr = await forViewers.translate(demoId, publishedContent, 'fr'); // { content, pages } or undefined
 */
export function createTranslationsForViewers(deps: Pick<TranslationsDeps, 'db' | 'documents'>) {
  const pages = new TaggedCache<Promise<{ bytes: Buffer; etag: string }>>(10 * 60_000, 200);

  /** `from`: where to read (the viewer's payload may read a replica); the database by default. */
  async function languages(demoId: string, from: Executor = deps.db) {
    const rows = await repo.reviewedLanguages(from, demoId);
    return { languages: rows.map((r) => r.lang), sourceLang: rows[0]?.sourceLang ?? 'en' };
  }

  /** The content in `lang` when that language is reviewed; undefined otherwise. `pages`: by HTML asset id. */
  async function translate<T extends DemoContent>(demoId: string, content: T, lang: string, from: Executor = deps.db) {
    const row = await repo.findTranslation(from, demoId, lang);
    if (row?.status !== 'reviewed') return undefined;
    const targets = currentTargets(unitsOf(content, new Map()), row.units);
    const translated = translateContent(content, targets, row.units);
    const byAsset = new Map<string, PageTranslation>();
    for (const step of content.steps) {
      const texts = translated.pages.get(step.id);
      if (step.htmlAssetId && texts?.length) byAsset.set(step.htmlAssetId, texts);
    }
    return { content: translated.content, pages: byAsset };
  }

  /** A captured page with its translated texts and its (translated) page patches, as served. */
  function servePage(asset: { sha256: string; bytes: Buffer }, texts: PageTranslation, patches: PagePatch[], imageUrl: (assetId: string) => string) {
    const textsHash = sha256Hex(JSON.stringify(texts)).slice(0, 16);
    const key = `${asset.sha256}:${textsHash}:${patchesHash(patches)}:${imageUrl('')}`;
    let found = pages.get(key);
    if (!found) {
      const imageUrls = Object.fromEntries(patchImageIds(patches).map((id) => [id, imageUrl(id)]));
      found = deps.documents
        .run('translatePage', [asset.bytes.toString('utf8'), texts, patches, imageUrls], { what: 'The captured page' })
        .then((html) => ({ bytes: Buffer.from(html, 'utf8'), etag: `"${asset.sha256.slice(0, 24)}-${textsHash}-${patchesHash(patches)}"` }));
      pages.set(key, found);
      found.catch(() => pages.delete(key));
    }
    return found;
  }

  return { languages, translate, servePage };
}

export type TranslationsForViewers = ReturnType<typeof createTranslationsForViewers>;
