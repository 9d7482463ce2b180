// Request fields every demos route shares: path parameters, and the errors every route may answer.
import { z } from 'zod';
import { errorEnvelope } from '../core/envelope';
import { idSchema } from '../core/ids';

// The path parameters of the demo, step, hotspot and asset routes.

export const demoParams = z.object({ id: idSchema('demo') });
export const stepParams = demoParams.extend({ step_id: idSchema('step') });
export const hotspotParams = stepParams.extend({ hotspot_id: idSchema('hotspot') });
export const assetParams = demoParams.extend({ asset_id: idSchema('asset') });

/** The errors every demos route may answer, each with the one error envelope; routes add their own (409, 413...). */
export const demoRouteErrors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };
