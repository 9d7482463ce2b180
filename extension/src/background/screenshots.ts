/**
 * chrome.tabs.captureVisibleTab may be called at most twice a second
 * (MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND); calls are queued and spaced so none is refused.
 */
const SPACING_MS = 520;
let queue: Promise<unknown> = Promise.resolve();
let lastAt = 0;

/** Screenshots asked for when the pointer went down, by the page's token; in memory, as they are short-lived. */
const prepared = new Map<string, Promise<string | null>>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function captureTab(windowId: number): Promise<string | null> {
  const shot = queue.then(async () => {
    const wait = lastAt + SPACING_MS - Date.now();
    if (wait > 0) await sleep(wait);
    lastAt = Date.now();
    try {
      return await chrome.tabs.captureVisibleTab(windowId, { format: 'png' });
    } catch {
      // The tab went away, or is showing a page the extension may not capture (the web store, chrome://).
      return null;
    }
  });
  queue = shot;
  return shot;
}

export function prepareShot(token: string, windowId: number): Promise<string | null> {
  const shot = captureTab(windowId);
  prepared.set(token, shot);
  // A prepared shot nobody claims (the click was on our own indicator, or cancelled) is dropped.
  setTimeout(() => prepared.delete(token), 30_000);
  return shot;
}

/** The screenshot prepared under `token`, or null when there is none (e.g. the worker was restarted since). */
export function claimShot(token: string | null): Promise<string | null> | null {
  if (!token) return null;
  const shot = prepared.get(token);
  prepared.delete(token);
  return shot ?? null;
}
