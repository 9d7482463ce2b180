// What a viewer gets once past the link's gates: the published demo's payload, its assets, the link preview.
import { tags } from '../core/changes';
import { z } from 'zod';
import { sha256Hex } from '../core/crypto';
import { AppError } from '../core/errors';
import type { ReadRouting } from '../db/read-replica';
import type { DemoReader } from '../demos/demos.reader';
import type { PatchedSnapshots } from '../demos/page-patches';
import { ASSET_CACHE_MAX_BYTES, type CachedAsset, type DemoPayload, type LinkState, type ViewerCache } from './viewer-cache';
import { buildPayload } from './viewer.payload';
import { brandOf } from '../workspaces/branding';
import { viewerDemoSchema } from './viewer.schemas';
import { gateError, type ResolveDeps, requireReady, resolve, type Visitor } from './viewer-gates.resolve';
import { ungatedLinkTokens } from './viewer.repo';
import type { DemoFacts } from './viewer-gates.view';
import { formsOf, gateFormOf } from './viewer-gates.form';
import { pickLanguage } from '../translations/languages';
import type { TranslationsForViewers } from '../translations/translations-viewer';
import type { PublicAssets } from './public-assets';
import type { DemoContent } from '../demos/demo-snapshot';
import type { Executor } from '../db/client';

export interface ViewerContentDeps {
  /** What the gates of every content request read (`requireReady`, viewer-gates.resolve.ts). */
  gates: ResolveDeps;
  /** `assets`, when given: small assets kept in memory (the first pictures every new viewer asks for). */
  cache: Pick<ViewerCache, 'payloads'> & Partial<Pick<ViewerCache, 'assets'>>;
  demos: Pick<DemoReader, 'published' | 'asset' | 'assetRow' | 'assetBytes' | 'assetPlaces' | 'imagesByDigest'>;
  /** Presigned redirects and CDN addresses for public links' images (public-assets.ts); absent: every asset from here. */
  publicAssets?: PublicAssets;
  /** Snapshots with their page patches applied, parsed once (the demos module's `pagePatches.snapshots`). */
  snapshots?: Pick<PatchedSnapshots, 'serve'>;
  /**
   * Origin put before asset paths in the payload: the API_URL when the API has an address of its own, else
   * '' so that the paths resolve against whatever host name the viewer reached the server by (APP_URL may be
   * another name for the same server, or wrong; the payload cache is shared by every host name).
   */
  assetOrigin: string;
  /** A demo's reviewed languages and its text in one (the translations module's); absent: the original only. */
  translations?: Pick<TranslationsForViewers, 'languages' | 'translate' | 'servePage'>;
  /** Where a payload missing from the cache is read (the replica when fit, db/read-replica.ts); absent: the primary. */
  reads?: Pick<ReadRouting, 'reader'>;
}

/**
 * What a viewer gets once past the gates: the demo and its assets, and what the link's preview shows. Their
 * events go to the ingestion (ingestion.ts `record`).
 *
 * @example
 * const content = createViewerContent({ gates: { ...kernel, cache }, cache, demos: demos.reader, assetOrigin: '' });
 * const json = (await content.demo(token, sessionToken, visitor)).json;
 */
/** The payload's validator; an A/B test arm's names the arm too, so a viewer moved to another arm never gets a 304 for the old one. */
const etagOf = (json: string, link: LinkState) => `W/"${sha256Hex(link.arm ? `${link.arm.id}\n${json}` : json).slice(0, 32)}"`;

export function createViewerContent(deps: ViewerContentDeps) {
  const { cache, gates } = deps;
  const base = deps.assetOrigin.replace(/\/+$/, '');

  async function payload(token: string, link: LinkState, preferences: readonly string[] = []): Promise<DemoPayload> {
    const { share } = link;
    const cacheTags = () => [tags.share(share.id), tags.demo(share.demoId), tags.workspace(share.workspaceId)];
    const viewerUrl = (assetId: string) => `${base}/v1/viewer/${token}/assets/${assetId}`;
    // A public link's payload names its images on the CDN (ASSET_PUBLIC_URL): an entry of its own, so a payload
    // built while the link was public is never served once it has a gate, even before the change is announced.
    const cdn = deps.publicAssets?.namesCdn(link) ? deps.publicAssets : undefined;
    const urlsOf = async (content: Pick<DemoContent, 'steps'>, from: Executor | undefined) => {
      if (!cdn) return viewerUrl;
      const ids = content.steps.flatMap((s) => (s.imageAssetId ? [s.imageAssetId] : []));
      const places = await deps.demos.assetPlaces(share.demoId, ids, from);
      const named = new Map(places.flatMap((row) => {
        const url = cdn.cdnUrl(row);
        return url ? [[row.id, url] as const] : [];
      }));
      return (assetId: string) => named.get(assetId) ?? viewerUrl(assetId);
    };
    // One entry per A/B test arm: each arm is another demo (or version), with its own assets and forms.
    const key = `${link.arm ? `${token}|arm:${link.arm.id}` : token}${cdn ? '|cdn' : ''}`;
    const pinned = link.arm?.pinned ? (link.version ?? undefined) : undefined;
    /**
     * The version the gates serve (`link`, read from the primary), and where it was read. A replica is asked
     * only once it has replayed every change announced to the link, its demo and its workspace, and the
     * workspace's writes (a publish, a redaction, a review of a translation: each announces the demo after its
     * commit); should it still answer another version than the gates', the primary is asked.
     */
    const publishedDemo = async () => {
      const from = deps.reads?.reader(share.workspaceId, cacheTags());
      const demo = await deps.demos.published(share.workspaceId, share.demoId, pinned, from);
      if (!from || demo?.version === link.version) return { demo, from };
      return { demo: await deps.demos.published(share.workspaceId, share.demoId, pinned), from: undefined };
    };
    const found = await cache.payloads.load(key, cacheTags, async () => {
      const { demo, from } = await publishedDemo();
      if (!demo) return undefined;
      const languages = deps.translations ? await deps.translations.languages(share.demoId, from) : { languages: [], sourceLang: 'en' };
      const built = buildPayload(demo, await urlsOf(demo, from), brandOf(link.workspace, base), share.variables);
      // Through the schema, as the serializer would: what is sent is what the OpenAPI document says.
      const json = JSON.stringify(z.encode(viewerDemoSchema, { ...built.data, language: null, languages: languages.languages }));
      return { json, etag: etagOf(json, link), assetIds: built.assetIds, patchSets: built.patchSets, forms: formsOf(demo.steps), languages };
    });
    if (!found) throw gateError('link', 'not_found', 'This link does not exist or has been revoked');
    const lang = found.languages && preferences.length > 0 ? pickLanguage(preferences, found.languages.languages, found.languages.sourceLang) : null;
    if (!lang || !deps.translations) return found;
    const translations = deps.translations;
    // The same tags: a change to the demo or its translations (announced as the demo's) drops every language.
    const translated = await cache.payloads.load(`${key}|${lang}`, cacheTags, async () => {
      const { demo, from } = await publishedDemo();
      const localized = demo && (await translations.translate(share.demoId, demo, lang, from));
      if (!localized) return undefined;
      const built = buildPayload(localized.content, await urlsOf(localized.content, from), brandOf(link.workspace, base), share.variables);
      built.data.steps.forEach((step, i) => {
        const assetId = localized.content.steps[i]?.htmlAssetId;
        if (step.html_url && assetId && localized.pages.has(assetId)) step.html_url += `${step.html_url.includes('?') ? '&' : '?'}lang=${lang}`;
      });
      const languages = found.languages!;
      const json = JSON.stringify(z.encode(viewerDemoSchema, { ...built.data, language: lang, languages: [...languages.languages] }));
      return {
        json,
        etag: etagOf(json, link),
        assetIds: built.assetIds,
        patchSets: built.patchSets,
        // Lead forms are checked against the original's: a translated label does not change what a field takes.
        forms: found.forms,
        languages,
        pages: localized.pages,
      };
    });
    return translated ?? found;
  }

  /** GET /v1/viewer/:token/demo */
  async function demo(token: string, sessionToken: string | undefined, visitor: Visitor, languages: readonly string[] = []) {
    const { link } = await requireReady(gates, token, sessionToken, visitor);
    return payload(token, link, languages);
  }

  /**
   * The payload of a link its caller has just let this viewer past the gates of (`link` as the gates served
   * it, arm included): the viewer page's bootstrap, right after `state` answered `ready`, without resolving
   * the link a second time.
   */
  const servedPayload = (token: string, link: LinkState, languages: readonly string[] = []) => payload(token, link, languages);

  /**
   * An asset's row, and its bytes once read, from the viewer cache (rows never change; the caller serves one
   * only while the payload the gates checked names it). Only rows whose bytes are small enough are kept there.
   */
  async function assetRow(demoId: string, assetId: string): Promise<CachedAsset | undefined> {
    const hit = cache.assets?.get(`${demoId}|${assetId}`);
    if (hit) return hit;
    const row = await deps.demos.assetRow(demoId, assetId);
    return row ? { row } : undefined;
  }

  /** The bytes of a row `assetRow` answered: read once, then kept with the row when small enough. */
  async function assetBytes(demoId: string, cached: CachedAsset): Promise<Buffer> {
    if (cached.bytes) return cached.bytes;
    const bytes = await deps.demos.assetBytes(cached.row);
    if (cache.assets && bytes.length <= ASSET_CACHE_MAX_BYTES) {
      const kept = { row: cached.row, bytes };
      await cache.assets.load(`${demoId}|${cached.row.id}`, () => [tags.demo(demoId)], async () => kept);
    }
    return bytes;
  }

  /**
   * GET /v1/viewer/:token/assets/:asset_id[?patches=hash]: only the assets the demo's payload names. A snapshot
   * asked for with the hash its html_url carries comes with the version's page patches applied (parsed once per
   * asset and patches: page-patches.ts); an unknown hash gets the snapshot as captured.
   */
  async function asset(token: string, sessionToken: string | undefined, assetId: string, visitor: Visitor, patches?: string, lang?: string) {
    const { link } = await requireReady(gates, token, sessionToken, visitor);
    const { assetIds, patchSets, pages } = await payload(token, link, lang ? [lang] : []);
    const cached = assetIds.has(assetId) ? await assetRow(link.share.demoId, assetId) : undefined;
    if (!cached) throw new AppError('not_found', 'Asset not found');
    const found = cached.row;
    // A public link's image in the bucket: a redirect to a presigned GET, decided on this request's link state
    // (a gate added or the link revoked stops new redirects at once). Should signing fail, the bytes come from here.
    if (deps.publicAssets?.redirects(link, found)) {
      try {
        return { etag: `"${found.sha256}"`, redirect: await deps.publicAssets.redirect(found) };
      } catch (error) {
        gates.log.warn({ err: error, asset_id: assetId }, 'could not presign an asset address; serving its bytes');
      }
    }
    const row = { ...found, bytes: await assetBytes(link.share.demoId, cached) };
    const plain = { contentType: row.contentType, bytes: row.bytes, etag: `"${row.sha256}"` };
    const set = patches ? patchSets?.get(`${assetId}:${patches}`) : undefined;
    const page = pages?.get(assetId);
    if (page && deps.translations && row.contentType.startsWith('text/html')) {
      const served = await deps.translations.servePage(row, page, set ?? [], (id) => `${base}/v1/viewer/${token}/assets/${id}`);
      return { contentType: row.contentType, ...served };
    }
    if (!set || !deps.snapshots || !row.contentType.startsWith('text/html')) return plain;
    const served = await deps.snapshots.serve(row, set, (id) => `${base}/v1/viewer/${token}/assets/${id}`);
    return { contentType: row.contentType, ...served };
  }

  /**
   * GET /v1/public-assets/sha256/:hex, the origin of a CDN in front of Demoshare (ASSET_PUBLIC_URL): the image's
   * bytes only while a public link could name them on the CDN (its version shows the image, the link has no
   * gate, no experiment); undefined otherwise, whichever other demo holds the same bytes. Found by digest, not
   * by blob key: an address named while the bytes were in a blob store stays good once `demoshare assets move
   * --to database` has put them back in their rows (a payload or a CDN may still hold it).
   */
  async function publicImage(digest: string) {
    if (!deps.publicAssets?.cdn || !/^[0-9a-f]{64}$/.test(digest)) return undefined;
    const images = await deps.demos.imagesByDigest(digest);
    if (images.length === 0) return undefined;
    for (const token of await ungatedLinkTokens(gates.database.db, [...new Set(images.map((i) => i.demoId))])) {
      let link: LinkState;
      try {
        // No visitor: nothing recorded. A link that became gated, expired or unpublished since fails here.
        ({ link } = await resolve(gates, token, undefined));
      } catch (error) {
        if (error instanceof AppError) continue;
        throw error;
      }
      if (!deps.publicAssets.namesCdn(link)) continue;
      const { assetIds } = await payload(token, link);
      const image = images.find((i) => i.demoId === link.share.demoId && assetIds.has(i.id));
      const row = image && (await deps.demos.asset(image.demoId, image.id));
      if (row) return { contentType: row.contentType, sha256: row.sha256, bytes: row.bytes };
    }
    return undefined;
  }

  const facts = new WeakMap<DemoPayload, DemoFacts>();

  /**
   * What the link's demo says of itself (title, first step's text, first screenshot), from the payload
   * cache. Whether a viewer or an unfurl may see it is the gates' decision (viewer-gates.view.ts).
   */
  async function preview(link: LinkState): Promise<DemoFacts> {
    const built = await payload(link.share.token, link);
    let found = facts.get(built);
    if (!found) {
      const data = JSON.parse(built.json) as {
        title: string;
        steps: { title: string; description: string; image_url: string | null }[];
      };
      const first = data.steps[0];
      found = {
        title: data.title,
        description: first?.description || first?.title || '',
        imageUrl: data.steps.find((s) => s.image_url)?.image_url ?? null,
        gateForm: gateFormOf(built.forms),
      };
      facts.set(built, found);
    }
    return found;
  }

  /** The image the link's owner chose for its unfurls: public by that choice, so read without the gates. */
  async function previewImage(link: LinkState) {
    const { share } = link;
    const row = share.previewImageAssetId ? await deps.demos.asset(share.demoId, share.previewImageAssetId) : undefined;
    return row?.contentType.startsWith('image/') ? row : undefined;
  }

  /** How the link's workspace presents itself: on every page of the link, its gates included. */
  const brand = (link: LinkState) => brandOf(link.workspace, base);

  /** The lead forms of the version the link serves, by step number (past the gates or not: the caller's gate rule). */
  const forms = async (link: LinkState) => (await payload(link.share.token, link)).forms;

  return { demo, servedPayload, asset, publicImage, preview, previewImage, brand, forms };
}

export type ViewerContent = ReturnType<typeof createViewerContent>;
