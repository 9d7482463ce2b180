import { ApiError } from '../../api/client';

/** What GET /extension/recorder.json says about the recorder this server hands out. */
export interface RecorderInfo {
  name: string;
  version: string;
  extension_id: string;
  download_url: string;
  size: number;
  instance_url: string;
}

/** The recorder's description, or null when the server has none to hand out (the extension is not built). */
export async function loadRecorderInfo(): Promise<RecorderInfo | null> {
  let response: Response;
  try {
    response = await fetch('/extension/recorder.json', { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach Demoshare. Check your connection and try again.');
  }
  if (response.status === 404) return null;
  if (!response.ok) throw new ApiError(response.status, 'internal_error', `The server answered ${response.status}. Try again in a moment.`);
  return (await response.json()) as RecorderInfo;
}
