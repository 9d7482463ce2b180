import { ApiError } from './client';

/** What HEAD on the offline file says before it is downloaded. */
export interface OfflineInfo {
  /** Bytes of the file. */
  size: number;
  /** The published version it plays. */
  version: number;
}

/** The file's beacon (docs/offline.md): none, always on, or on once the person viewing the file allowed it. */
export type OfflineBeacon = 'off' | 'on' | 'ask';

const path = (demoId: string, beacon: OfflineBeacon) =>
  `/v1/demos/${encodeURIComponent(demoId)}/export/offline${beacon === 'on' ? '?beacon=true' : beacon === 'ask' ? '?beacon=ask' : ''}`;

export const offlineApi = {
  /** A plain link: the browser downloads it with the session cookie (a GET needs no CSRF header). */
  fileUrl: path,
  /**
   * The file's size and version, from HEAD (the server builds the file once and keeps it for the download
   * that follows). A HEAD answer has no body, so a refusal is asked again with GET for its message.
   */
  async info(demoId: string, beacon: OfflineBeacon): Promise<OfflineInfo> {
    let response: Response;
    try {
      response = await fetch(path(demoId, beacon), { method: 'HEAD', credentials: 'same-origin' });
    } catch {
      throw new ApiError(0, 'network_error', 'Could not reach Demoshare. Check your connection and try again.');
    }
    if (response.ok) {
      return { size: Number(response.headers.get('x-bundle-size') ?? response.headers.get('content-length') ?? 0), version: Number(response.headers.get('x-demo-version') ?? 0) };
    }
    const again = await fetch(path(demoId, beacon), { headers: { accept: 'application/json' }, credentials: 'same-origin' }).catch(() => null);
    const body = (await again?.json().catch(() => null)) as { error?: { code: string; message: string; details?: { field: string; message: string }[] } } | null;
    throw new ApiError(response.status, body?.error?.code ?? 'internal_error', body?.error?.message ?? `The server answered ${response.status}.`, body?.error?.details ?? []);
  },
};

/** "1.4 MB", "820 KB": a file's size as people read it. */
export function fileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
