/**
 * chrome.tabs.captureVisibleTab may be called at most twice a second
 * (MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND); calls are queued and spaced so none is refused.
 */
const SPACING_MS = 520;
let queue: Promise<unknown> = Promise.resolve();
let lastAt = 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function captureTab(windowId: number): Promise<string | null> {
  const shot = queue.then(async () => {
    const wait = lastAt + SPACING_MS - Date.now();
    if (wait > 0) await sleep(wait);
    lastAt = Date.now();
    try {
      return await chrome.tabs.captureVisibleTab(windowId, { format: 'png' });
    } catch {
      // The tab went away, or shows a page the extension may not capture (the web store, chrome://).
      return null;
    }
  });
  queue = shot;
  return shot;
}

/**
 * Screenshots asked for when the pointer went down, by the page's token, in memory: they are claimed within
 * a second. The page sends the step right after the click, often before its screenshot request has been
 * handled, so a claim waits a little for the request to arrive.
 */
const prepared = new Map<string, Promise<string | null>>();
const waiting = new Map<string, (shot: Promise<string | null>) => void>();
/** Time for the page to paint with its indicator hidden before the capture. */
const PAINT_MS = 35;
const CLAIM_WAIT_MS = 500;
/**
 * Requests this close together share one capture: typing into a field and clicking a button are two steps
 * at one instant (the field's change event fires as the pointer goes down on the button), and a second
 * capture would have to wait out the rate limit, by when the click has changed the page.
 */
const SHARE_MS = 250;
let latest: { windowId: number; at: number; page: string | null; shot: Promise<string | null> } | null = null;

/**
 * `page` names the page's state (its address and a count of its changes): a page that has not changed since
 * the last capture is not captured again, so the rate limit is spent only where pixels changed.
 */
export function prepareShot(token: string, windowId: number, page: string | null = null): Promise<string | null> {
  const now = Date.now();
  const same = latest !== null && latest.windowId === windowId && (now - latest.at < SHARE_MS || (page !== null && latest.page === page));
  const shot = same ? latest!.shot : sleep(PAINT_MS).then(() => captureTab(windowId));
  latest = same ? { ...latest!, page } : { windowId, at: now, page, shot };
  const waiter = waiting.get(token);
  if (waiter) {
    waiting.delete(token);
    waiter(shot);
  } else {
    prepared.set(token, shot);
    // A prepared shot nobody claims (the click was cancelled, or landed on our indicator) is dropped.
    setTimeout(() => prepared.delete(token), 30_000);
  }
  return shot;
}

/** The screenshot prepared under `token`; null when none was asked for (or the worker restarted since). */
export function claimShot(token: string | null): Promise<string | null> | null {
  if (!token) return null;
  const shot = prepared.get(token);
  if (shot) {
    prepared.delete(token);
    return shot;
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      waiting.delete(token);
      resolve(null);
    }, CLAIM_WAIT_MS);
    waiting.set(token, (late) => {
      clearTimeout(timer);
      resolve(late);
    });
  });
}
