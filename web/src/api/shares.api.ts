import type { z } from 'zod';
import type { accessLogEntrySchema, createShareBody, patchShareBody, shareSchema } from '../../../src/shares/shares.schemas';
import { api, apiList } from './client';

// Wire types from the server's schemas (type-only: nothing of the server is bundled).
export type Share = z.output<typeof shareSchema>;
export type AccessLogEntry = z.output<typeof accessLogEntrySchema>;
export type NewShare = z.input<typeof createShareBody>;
export type ShareChange = z.input<typeof patchShareBody>;

export const linkName = (share: Pick<Share, 'name'>) => share.name || 'Untitled link';

const id = (value: string) => encodeURIComponent(value);

export const sharesApi = {
  list: (demoId: string) => apiList<Share>(`/demos/${id(demoId)}/shares`, { query: { per_page: 100 } }),
  create: (demoId: string, body: NewShare) => api<Share>('POST', `/demos/${id(demoId)}/shares`, { body }),
  update: (shareId: string, body: ShareChange) => api<Share>('PATCH', `/shares/${id(shareId)}`, { body }),
  revoke: (shareId: string) => api<void>('DELETE', `/shares/${id(shareId)}`),
  accessLog: (shareId: string, page = 1) =>
    apiList<AccessLogEntry>(`/shares/${id(shareId)}/access-log`, { query: { page, per_page: 50 } }),
};

/**
 * The snippet a site pastes to embed a demo: a box that keeps the demo's proportions at any width, with
 * the player filling it. Lazy-loaded, so a demo far down a page costs nothing until it is scrolled to.
 */
/**
 * The iframe to paste into a page. `waitForConsent`: the player stores nothing (no cookie, no storage) until
 * the page grants consent with `consentCall` (docs/consent.md).
 */
export function embedCode(share: Pick<Share, 'embed_url'>, title: string, waitForConsent = false): string {
  const safeTitle = title.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  const src = new URL(share.embed_url);
  if (waitForConsent) src.searchParams.set('consent', 'pending');
  return (
    '<div style="position:relative;width:100%;aspect-ratio:16/10;min-height:420px">' +
    `<iframe src="${src.href.replace(/&/g, '&amp;')}" title="${safeTitle}" loading="lazy" allow="fullscreen; clipboard-write" ` +
    'style="position:absolute;inset:0;width:100%;height:100%;border:0;border-radius:12px"></iframe></div>'
  );
}

/** The line a page runs when its consent tool decides (`granted` true, or false to withdraw): docs/consent.md. */
export function consentCall(share: Pick<Share, 'embed_url'>, granted = true): string {
  const origin = new URL(share.embed_url).origin;
  return (
    `document.querySelector('iframe[src^="${origin}/embed/"]').contentWindow` +
    `.postMessage({ type: 'demoshare:consent', granted: ${granted} }, '${origin}');`
  );
}
