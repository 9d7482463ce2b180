// Request fields every demos route shares (path parameters) and the URLs answers point to.
import { z } from 'zod';
import type { Config } from '../config';
import { errorEnvelope } from '../core/envelope';
import { idSchema } from '../core/ids';
import { shareUrls } from '../core/share-urls';

// What the demo, step, hotspot and configuration schemas share: path parameters.

export const demoParams = z.object({ id: idSchema('demo') });
export const stepParams = demoParams.extend({ step_id: idSchema('step') });
export const hotspotParams = stepParams.extend({ hotspot_id: idSchema('hotspot') });
export const assetParams = demoParams.extend({ asset_id: idSchema('asset') });

/** Where assets are fetched from: the API origin, under the owning demo. */
export interface UrlBuilder {
  asset(demoId: string, assetId: string | null): string | null;
  share(token: string | null): string | null;
}

/** The errors every demos route may answer, each with the one error envelope; routes add their own (409, 413...). */
export const demoRouteErrors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };

/** {@link demoUrls} for this server: assets on API_URL (APP_URL when unset), share links on APP_URL. */
export function demoUrlsOf(config: Pick<Config, 'API_URL' | 'APP_URL'>): UrlBuilder {
  return demoUrls(config.API_URL ?? config.APP_URL, config.APP_URL);
}

/** Assets live on the API origin, share links on the web app's. */
export function demoUrls(apiUrl: string, appUrl: string): UrlBuilder {
  const base = apiUrl.replace(/\/+$/, '');
  const shares = shareUrls(appUrl);
  return {
    asset: (demoId, assetId) => (assetId ? `${base}/v1/demos/${demoId}/assets/${assetId}` : null),
    share: (token) => (token ? shares.page(token) : null),
  };
}
