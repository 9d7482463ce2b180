import type { ContentMessage } from '../shared/messages';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends to the background worker and waits for its answer, trying again while the worker restarts (the
 * browser stops it when idle; a message wakes it, but one sent while it is going down can go unanswered).
 */
export async function send<T>(message: ContentMessage, attempts = 6): Promise<T> {
  let last: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      const reply = (await chrome.runtime.sendMessage(message)) as { ok: boolean; result?: T; error?: string } | undefined;
      if (reply?.ok) return reply.result as T;
      last = new Error(reply?.error ?? 'no answer');
      if (reply && !reply.ok) break;
    } catch (error) {
      last = error;
      // The extension was reloaded or removed: this page's script is orphaned and nothing can reach it.
      if (!chrome.runtime?.id) break;
    }
    await sleep(100 * 2 ** attempt);
  }
  throw last instanceof Error ? last : new Error(String(last));
}

/** A random id; crypto.randomUUID exists only on secure pages, and apps are recorded over plain http too. */
export function randomId(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
}
