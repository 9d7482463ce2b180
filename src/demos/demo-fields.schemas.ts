import { z } from 'zod';
import { idSchema } from '../core/ids';
import { withoutNul } from '../core/text';
import { shareUrls } from '../core/share-urls';

// What the demo, step, hotspot and configuration schemas share: addresses and path parameters.

export const httpUrl = withoutNul(z.url({ protocol: /^https?$/ })).max(2048).meta({ example: 'https://example.com/pricing' });

export const demoParams = z.object({ id: idSchema('demo') });
export const stepParams = demoParams.extend({ step_id: idSchema('step') });
export const hotspotParams = stepParams.extend({ hotspot_id: idSchema('hotspot') });
export const assetParams = demoParams.extend({ asset_id: idSchema('asset') });

/** Where assets are fetched from: the API origin, under the owning demo. */
export interface UrlBuilder {
  asset(demoId: string, assetId: string | null): string | null;
  share(token: string | null): string | null;
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
