import { ApiFailure, api } from './api';
import { base64 } from './resources';
import { type Recording, type StoredStep, store } from './store';

/** The server's view of an upload (POST /v1/recordings and friends; see docs/recording-upload.md). */
interface ServerRecording {
  id: string;
  status: 'uploading' | 'completed';
  received: number[];
  missing: number[];
  demo_id: string | null;
  editor_url: string | null;
}

/** One step's body, as `PUT /v1/recordings/{id}/steps/{number}` takes it. */
function stepBody(step: StoredStep): string {
  return JSON.stringify({
    action: step.action,
    title: step.title,
    page_url: step.pageUrl,
    viewport: step.viewport,
    target: step.target,
    screenshot: step.screenshot,
    snapshot: step.snapshot,
    value: step.value,
  });
}

/** RFC 9530 Content-Digest of the exact bytes sent: the server refuses a step that arrived damaged. */
async function contentDigest(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return `sha-256=:${base64(digest)}:`;
}

export type Progress = (uploaded: number) => Promise<void>;

/**
 * Uploads a stopped recording, resuming where an earlier attempt stopped: the server says which steps it
 * lacks, and only those are sent. Returns the recording as completed (its demo and editor address).
 */
export async function uploadRecording(recording: Recording, progress: Progress): Promise<ServerRecording> {
  let uploadId = recording.uploadId;
  let server: ServerRecording | null = null;
  if (uploadId) {
    server = await api<ServerRecording>(`/v1/recordings/${uploadId}`).catch((error) => {
      // Expired or discarded on the server: start a new upload.
      if (error instanceof ApiFailure && (error.status === 404 || error.status === 410)) return null;
      throw error;
    });
  }
  if (!server) {
    server = await api<ServerRecording>('/v1/recordings', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        step_count: recording.stepIds.length,
        mode: recording.into.mode,
        ...(recording.into.demoId ? { demo_id: recording.into.demoId } : {}),
        ...(recording.into.stepId ? { step_id: recording.into.stepId } : {}),
      }),
    });
    uploadId = server.id;
    await store.setRecording({ ...recording, uploadId });
  }
  if (server.status === 'completed') return server;
  let uploaded = recording.stepIds.length - server.missing.length;
  await progress(uploaded);
  for (const number of server.missing) {
    const step = await store.step(recording.stepIds[number - 1]!);
    if (!step) throw new ApiFailure(400, null, `Step ${number} is missing from this browser's storage`);
    const bytes = new TextEncoder().encode(stepBody(step));
    await api(`/v1/recordings/${uploadId}/steps/${number}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'content-digest': await contentDigest(bytes) },
      body: bytes,
    });
    uploaded += 1;
    await progress(uploaded);
  }
  return api<ServerRecording>(`/v1/recordings/${uploadId}/complete`, { method: 'POST' });
}
