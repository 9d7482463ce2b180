// Which links' assets may be fetched past Demoshare (a presigned redirect to the bucket, a CDN address), and those addresses.
import type { BlobStore } from '../core/blob-store/blob-store';
import type { LinkState } from './viewer-cache';

/**
 * A link whose demo anyone holding the link may play without passing anything: live (not revoked), without
 * an expiry (an address handed out could outlive it), no password, no e-mail gate (nor the lead form that
 * stands in for it), no allow-list, and a published version to serve. Only such links' images may be handed
 * out as addresses that work without Demoshare's gates; every other asset is served by Demoshare after them.
 *
 * @example
 * ```ts
 * import { isPublicLink } from './public-assets';
 * import type { LinkState } from './viewer-cache';
 *
 * declare const link: LinkState;
 * isPublicLink(link); // false as soon as the link gets a password, an allow-list or an expiry
 * ```
 */
export function isPublicLink(link: LinkState): boolean {
  const { share } = link;
  return (
    share.revokedAt === null &&
    share.expiresAt === null &&
    share.passwordHash === null &&
    !share.requireIdentification &&
    share.allowedEmails.length === 0 &&
    share.allowedDomains.length === 0 &&
    link.demoStatus === 'published' &&
    link.version !== null
  );
}

/** An asset row as far as its address goes: where its bytes are and what they are. */
export interface AssetPlace {
  contentType: string;
  sha256: string;
  blobKey: string | null;
}

/**
 * Only images, and only those in the blob store: snapshots (HTML) need the sandbox policy only Demoshare
 * sends, are fetched by the player (same-origin `connect-src`) and may be patched or translated per request;
 * rows with their bytes in the database have no address but Demoshare's.
 */
const servableElsewhere = (row: AssetPlace) => row.blobKey !== null && row.contentType.startsWith('image/');

export interface PublicAssetsOptions {
  store: BlobStore | undefined;
  /** ASSET_REDIRECT */
  redirect: 'off' | 'presigned';
  /** ASSET_PRESIGN_TTL, in ms */
  presignTtlMs: number;
  /** ASSET_PUBLIC_URL */
  publicUrl?: string;
  now: () => Date;
}

/** What a public asset redirect answers: where to, and how long the browser may keep the redirect. */
export interface AssetRedirect {
  location: string;
  maxAgeSeconds: number;
}

/**
 * The two ways public links' images leave Demoshare (docs/object-storage.md#public-assets):
 * - `redirect`: the asset request, after the gates, answers a redirect to a presigned GET of the object.
 *   Signing times are rounded down to half the lifetime, so every viewer in that window gets the same address
 *   (the browser's and the bucket's caches reuse it), and each address is still valid for at least half the
 *   lifetime when handed out; the redirect itself is kept a quarter of it.
 * - `cdnUrl`: the payload names `<ASSET_PUBLIC_URL>/sha256/<hex>`, an immutable address on a CDN whose origin
 *   is Demoshare's GET /v1/public-assets/sha256/<hex> (which serves a blob only while a public link names it)
 *   or the bucket itself.
 *
 * @example
 * ```ts
 * import { createPublicAssets } from './public-assets';
 *
 * const publicAssets = createPublicAssets({ store, redirect: 'presigned', presignTtlMs: 600_000, now: () => new Date() });
 * if (publicAssets.redirects(link, row)) reply.redirect((await publicAssets.redirect(row)).location, 302);
 * ```
 */
export function createPublicAssets(options: PublicAssetsOptions) {
  const store = options.store;
  const signer = options.redirect === 'presigned' && store?.presignGet ? store : undefined;
  const cdnBase = options.publicUrl && store ? options.publicUrl.replace(/\/+$/, '') : undefined;
  const windowMs = Math.max(1000, Math.floor(options.presignTtlMs / 2000) * 1000);
  const expiresInSeconds = Math.floor(options.presignTtlMs / 1000);
  const maxAgeSeconds = Math.floor(options.presignTtlMs / 4000);

  return {
    /** Whether this asset request of this link answers a presigned redirect. */
    redirects: (link: LinkState, row: AssetPlace) => signer !== undefined && servableElsewhere(row) && isPublicLink(link),
    /** The presigned address of a row `redirects` accepted. A failure is AppError `unavailable`. */
    async redirect(row: AssetPlace): Promise<AssetRedirect> {
      const now = options.now().getTime();
      const signedAt = new Date(Math.floor(now / windowMs) * windowMs);
      const location = await signer!.presignGet!(row.blobKey!, {
        expiresInSeconds,
        signedAt,
        cacheControl: `private, max-age=${expiresInSeconds}, immutable`,
      });
      return { location, maxAgeSeconds };
    },
    /** ASSET_PUBLIC_URL is set (and a blob store holds the bytes): the CDN origin route answers. */
    cdn: cdnBase !== undefined,
    /**
     * Whether this link's payload names CDN addresses: ASSET_PUBLIC_URL set and the link public, and no A/B test
     * serving it (its arms are per viewer; the CDN origin could not tell which arm named an image).
     */
    namesCdn: (link: LinkState) => cdnBase !== undefined && isPublicLink(link) && link.arm === undefined,
    /** The CDN address of a row, or undefined when it must stay on Demoshare's route. */
    cdnUrl: (row: AssetPlace) => (cdnBase !== undefined && servableElsewhere(row) ? `${cdnBase}/sha256/${row.sha256}` : undefined),
  };
}

export type PublicAssets = ReturnType<typeof createPublicAssets>;
