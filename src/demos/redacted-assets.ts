// The new bytes of a redaction, worked out before its transaction: the image with regions obscured, the
// snapshot with the selected elements redacted.
import { conflict, type ErrorDetail, invalid } from '../core/errors';
import { sniffImage } from '../core/image-sniff';
import type { Database } from '../db/client';
import type { StepRow } from './demos.repo';
import { type AssetStore, loadAsset } from './asset-bytes';
import { redactImage, UndecodableImage } from './redact-image';
import type { RedactHtml } from './redact-snapshot';
import type { RedactionsInput } from './redactions.schemas';
import type { NewAsset } from './step-assets';

/** The step's image with the regions obscured, or nothing when no region is given. */
export async function redactedImage(
  database: Pick<Database, 'db'>,
  store: AssetStore,
  step: StepRow,
  input: RedactionsInput,
): Promise<NewAsset | undefined> {
  const regions = input.regions ?? [];
  if (regions.length === 0 || !step.imageAssetId) return undefined;
  const asset = await loadAsset(database.db, store, step.demoId, step.imageAssetId);
  const info = asset ? sniffImage(asset.bytes) : null;
  if (!asset || !info) throw conflict('The step’s image could not be read: upload it again, then blur it');
  try {
    const out = await redactImage(asset.bytes, info.contentType, regions, input.style);
    return { contentType: out.contentType, bytes: out.bytes };
  } catch (err) {
    if (err instanceof UndecodableImage) throw conflict('The step’s image could not be decoded: upload it again, then blur it');
    throw err;
  }
}

/**
 * The step's snapshot with the selected elements obscured, or nothing when no selector is given. A selector
 * that matches nothing refuses the whole request (400 naming it).
 */
export async function redactedSnapshot(
  database: Pick<Database, 'db'>,
  store: AssetStore,
  redactHtml: RedactHtml,
  step: StepRow,
  input: RedactionsInput,
): Promise<NewAsset | undefined> {
  const selectors = input.selectors ?? [];
  if (selectors.length === 0 || !step.htmlAssetId) return undefined;
  const asset = await loadAsset(database.db, store, step.demoId, step.htmlAssetId);
  if (!asset) throw conflict('The step’s snapshot could not be read');
  const { html, matches } = await redactHtml(asset.bytes.toString('utf8'), selectors).catch((error: unknown) => {
    // Stored before the nesting limit existed: there is no element the selectors could be checked against.
    if (error instanceof Error && error.name === 'NestingTooDeepError') throw conflict(`The step’s snapshot cannot be blurred: ${error.message}`);
    throw error;
  });
  const unmatched: ErrorDetail[] = [];
  matches.forEach((n, i) => {
    if (n === 0) unmatched.push({ field: `selectors.${i}`, message: 'matches no element of the step’s snapshot' });
  });
  if (unmatched.length > 0) {
    const which = unmatched.length === 1 ? `Selector ${unmatched[0]!.field.split('.')[1]} matches` : `${unmatched.length} selectors match`;
    throw invalid(`${which} no element of the step’s snapshot: nothing was blurred`, unmatched);
  }
  return { contentType: asset.contentType, bytes: Buffer.from(html, 'utf8') };
}
