import { type ViewerApi, ViewerError } from './api';
import { type Consent, consentedStorage, grantedConsent } from './consent';
import type { PathEvent, TrackedEvent } from './wire';

/** The events every server takes; the others (paths, issue 29) go in batches of their own. */
const STANDARD = ['view_started', 'step_reached', 'completed'];
const isPath = (e: TrackedEvent) => !STANDARD.includes(e.type);

const BATCH = 25;
const DEBOUNCE_MS = 1000;
const MAX_BACKOFF_MS = 30_000;

/** crypto.randomUUID exists only in secure contexts; a self-hosted server on plain http over a LAN is not one. */
export function uuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Sends viewing events in small batches. Every event gets its id once and is kept (in sessionStorage,
 * where allowed and once the embedding page consented: docs/consent.md; in memory before) until the server has accepted it, so a retry, a beacon on page hide and a reload in the
 * same tab all resend the same ids and the server's idempotency keeps the view from counting twice.
 */
export class Tracker {
  private queue: TrackedEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private sending = false;
  private failures = 0;
  /** The server refused a batch of path events (one older than them): they are no longer sent. */
  private pathRefused = false;
  /** Sending waits for the first step's picture (hold): on a busy server the picture goes first. */
  private held = false;
  private readonly key: string;
  private readonly stored: ReturnType<typeof consentedStorage>;

  constructor(
    private readonly api: Pick<ViewerApi, 'events' | 'keepalive'>,
    token: string,
    consent: Consent = grantedConsent(),
  ) {
    this.key = `demoshare:events:${token}`;
    this.stored = consentedStorage(consent, () => sessionStorage);
    this.queue = this.load();
    // Consent given: what is queued in memory is written (with what an earlier page of the tab left);
    // withdrawn: what was written is cleared, and the queue goes on in memory.
    consent.onChange((granted) => {
      if (!granted) return this.stored.remove(this.key);
      const mine = new Set(this.queue.map((e) => e.id));
      this.queue.push(...this.load().filter((e) => !mine.has(e.id)));
      this.save();
      if (this.queue.length) this.schedule(0);
    });
    if (this.queue.length) this.schedule(0);
    // pagehide fires on bfcache and unload alike; visibilitychange covers mobile tab switches that never unload.
    addEventListener('pagehide', () => this.beacon());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') this.beacon();
    });
  }

  track(type: TrackedEvent['type'], fields: Omit<PathEvent, 'id' | 'type' | 'at'> & { referrer?: string } = {}) {
    const event = { id: uuid(), type, ...fields, at: new Date().toISOString() } as TrackedEvent;
    if (this.pathRefused && isPath(event)) return;
    this.queue.push(event);
    this.save();
    // A completion matters most and is often followed by the viewer leaving: send it at once.
    this.schedule(type === 'view_started' || type === 'completed' ? 0 : DEBOUNCE_MS);
  }

  /**
   * Sends nothing until the returned release is called (the first step is on screen), or `maxMs` at most:
   * a picture that never loads must not keep the view from being counted. A page hide still hands the
   * queue to a keepalive request.
   */
  hold(maxMs = 2000): () => void {
    this.held = true;
    const release = () => {
      if (!this.held) return;
      this.held = false;
      if (this.queue.length) this.schedule(0);
    };
    setTimeout(release, maxMs);
    return release;
  }

  /** Events not yet accepted by the server (for tests and the bench). */
  pending(): readonly TrackedEvent[] {
    return this.queue;
  }

  private load(): TrackedEvent[] {
    try {
      const list = JSON.parse(this.stored.get(this.key) ?? '[]') as unknown;
      return Array.isArray(list) ? (list as TrackedEvent[]) : [];
    } catch {
      return [];
    }
  }

  /** Storage can be blocked (third-party iframes) or not consented to: events then live as long as the page. */
  private save() {
    this.stored.set(this.key, JSON.stringify(this.queue));
  }

  private schedule(delay: number) {
    if (this.timer !== null) {
      if (delay > 0) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, delay);
  }

  private async flush() {
    if (this.sending || this.held || this.queue.length === 0) return;
    this.sending = true;
    // Path events never share a batch with the standard ones: a server that does not know them refuses
    // the whole batch, and that must never cost a view its steps or its completion. A batch is the queue's
    // leading run of one kind, so that events reach the server in the order they happened: it credits a
    // step to the chapter chosen last, and a step reached after a choice must not overtake it.
    const path = isPath(this.queue[0]!);
    const batch: TrackedEvent[] = [];
    for (const event of this.queue) {
      if (isPath(event) !== path || batch.length === BATCH) break;
      batch.push(event);
    }
    try {
      await this.api.events(batch);
      this.failures = 0;
      this.drop(batch);
    } catch (err) {
      const status = err instanceof ViewerError ? err.status : 0;
      if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
        // The server will never take these (a bad event, a revoked link): retrying would only loop.
        this.drop(batch);
        if (path) {
          this.pathRefused = true;
          this.drop(this.queue.filter(isPath));
        }
      } else {
        this.failures++;
        const wait = err instanceof ViewerError && err.retryAfter ? err.retryAfter * 1000 : 1000 * 2 ** this.failures;
        this.sending = false;
        this.schedule(Math.min(MAX_BACKOFF_MS, wait));
        return;
      }
    }
    this.sending = false;
    if (this.queue.length) this.schedule(0);
  }

  private drop(batch: TrackedEvent[]) {
    const sent = new Set(batch.map((e) => e.id));
    this.queue = this.queue.filter((e) => !sent.has(e.id));
    this.save();
  }

  /**
   * The page may be going away: hand what is left to a keepalive request, which outlives the page (unlike
   * sendBeacon it can carry the session header that cross-site frames need). Its answer cannot be read,
   * so the events stay queued and are resent (same ids) if the page comes back.
   */
  private beacon() {
    const standard = this.queue.filter((e) => !isPath(e));
    const path = this.queue.filter(isPath);
    if (standard.length) void this.api.keepalive(standard.slice(0, BATCH * 2));
    if (path.length) void this.api.keepalive(path.slice(0, BATCH * 2));
  }
}
