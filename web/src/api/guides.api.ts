import { ApiError } from './client';

export type GuideFormat = 'markdown' | 'pdf';
export type GuideVersion = 'draft' | 'published';

/** The guide as a file to save: its bytes and the name the server gave it. */
export interface GuideDownload {
  blob: Blob;
  filename: string;
}

const NETWORK = 'Could not reach Demoshare. Check your connection and try again.';

export const guidesApi = {
  /**
   * GET /v1/demos/:id/export/guide: fetched rather than linked, so that a refusal (no steps, no Chromium for
   * PDF) shows in the dialog as a sentence instead of replacing the page with JSON.
   */
  download: async (demoId: string, format: GuideFormat, version: GuideVersion): Promise<GuideDownload> => {
    const query = new URLSearchParams({ format, version });
    let response: Response;
    try {
      response = await fetch(`/v1/demos/${encodeURIComponent(demoId)}/export/guide?${query}`, { credentials: 'same-origin' });
    } catch {
      throw new ApiError(0, 'network_error', NETWORK);
    }
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as { error?: { code: string; message: string; details?: []; request_id?: string } } | null;
      throw body?.error
        ? new ApiError(response.status, body.error.code, body.error.message, body.error.details, body.error.request_id)
        : new ApiError(response.status, 'internal_error', `The server answered ${response.status}. Try again in a moment.`);
    }
    const disposition = response.headers.get('content-disposition') ?? '';
    const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? (format === 'pdf' ? 'guide.pdf' : 'guide.zip');
    return { blob: await response.blob(), filename };
  },
};

/** Hands a downloaded file to the browser's save. */
export function saveFile({ blob, filename }: GuideDownload) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
