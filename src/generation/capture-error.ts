/** Why a page could not be captured, in words fit for `generation.error` on the demo. */
export class CaptureError extends Error {
  override name = 'CaptureError';
}
