/**
 * The consent rule of Demoshare's embeds (docs/consent.md), for the player and the hub embed alike.
 *
 * An embed opened with `?consent=pending` stores nothing on the viewer's device until the page that embeds
 * it grants consent with `postMessage({type: 'demoshare:consent', granted: true}, '*')` on the frame's
 * window: no cookie (its API requests say `X-Viewer-Consent: pending`, so the server sets none and keeps
 * no visitor id), no localStorage, sessionStorage, IndexedDB or Cache Storage, and nothing already stored
 * is read. Until then what the player must remember (its session, unsent events and leads) lives in memory.
 * `granted: false` (denied or withdrawn) stops the writing and asks the users of storage to clear what they
 * wrote. Only the embedding parent is listened to: a message from any other window (another frame, a
 * popup, the frame itself) or, where the browser names it, another origin than the parent's, is ignored.
 * Without the parameter the embed behaves as before (consent is the host page's business).
 *
 * @example
 * const consent = createConsent(location.search);
 * fetch(url, { headers: consent.headers(), credentials: consent.granted() ? 'include' : 'omit' });
 * consent.onChange((granted) => (granted ? save() : clear()));
 */

export type ConsentState = 'granted' | 'pending' | 'denied';

/** The embed page's query parameter (`/embed/:token?consent=pending`). */
export const CONSENT_PARAM = 'consent';
/** The `type` of the host page's message. */
export const CONSENT_MESSAGE = 'demoshare:consent';
/** The request header that tells the viewer API consent is not granted (no Set-Cookie, no visitor id). */
export const CONSENT_HEADER = 'x-viewer-consent';

/** `pending` when the address asks the embed to wait for consent (`consent=pending`, or `denied`); else granted. */
export function initialConsent(search: string): ConsentState {
  const value = new URLSearchParams(search).get(CONSENT_PARAM);
  if (value === 'pending') return 'pending';
  if (value === 'denied') return 'denied';
  return 'granted';
}

/**
 * The decision a message carries (`true` granted, `false` denied or withdrawn), or null when it is not a
 * consent message from the embedding parent. `self` is the frame's window.
 */
export function consentFromMessage(event: Pick<MessageEvent, 'source' | 'origin' | 'data'>, self: Window = window): boolean | null {
  if (self.parent === self || event.source !== self.parent) return null;
  // Chromium and Safari name the embedding page's origin; where they do, it must be the sender's.
  const ancestors = self.location.ancestorOrigins;
  if (ancestors && ancestors.length > 0 && ancestors[0] !== event.origin) return null;
  const data = event.data as { type?: unknown; granted?: unknown } | null;
  if (!data || typeof data !== 'object' || data.type !== CONSENT_MESSAGE || typeof data.granted !== 'boolean') return null;
  return data.granted;
}

export interface Consent {
  state(): ConsentState;
  /** Storage and cookies allowed. */
  granted(): boolean;
  /** The header the viewer API reads while consent is not granted. */
  headers(): Record<string, string>;
  /** Told each time the decision changes (`true`: granted; `false`: denied or withdrawn). */
  onChange(listener: (granted: boolean) => void): void;
  /** For the offline file and tests: decide without a message. */
  set(granted: boolean): void;
}

/** The page's consent, from its address, then from the embedding parent's messages. */
export function createConsent(search: string = location.search, self: Window = window): Consent {
  let state = initialConsent(search);
  const listeners: Array<(granted: boolean) => void> = [];
  const set = (granted: boolean) => {
    const next: ConsentState = granted ? 'granted' : 'denied';
    if (next === state) return;
    const was = state;
    state = next;
    // pending → denied: nothing was stored, nothing to clear.
    if (granted || was === 'granted') for (const listener of listeners) listener(granted);
  };
  self.addEventListener('message', (event) => {
    const granted = consentFromMessage(event, self);
    if (granted !== null) set(granted);
  });
  return {
    state: () => state,
    granted: () => state === 'granted',
    headers: (): Record<string, string> => (state === 'granted' ? {} : { [CONSENT_HEADER]: 'pending' }),
    onChange: (listener) => void listeners.push(listener),
    set,
  };
}

/** Consent that is never asked for (the offline file, a page without `?consent=`): today's behaviour, fixed. */
export function grantedConsent(): Consent {
  return { state: () => 'granted', granted: () => true, headers: () => ({}), onChange: () => {}, set: () => {} };
}

/** Storage that is only touched with consent: reads and writes are no-ops without it. */
export function consentedStorage(consent: Pick<Consent, 'granted'>, which: () => Storage) {
  return {
    get(key: string): string | null {
      if (!consent.granted()) return null;
      try {
        return which().getItem(key);
      } catch {
        return null;
      }
    },
    set(key: string, value: string) {
      if (!consent.granted()) return;
      try {
        which().setItem(key, value);
      } catch {
        // Blocked storage (third-party frames): what it holds lives as long as the page.
      }
    },
    /** Even without consent: withdrawal clears what was written while it was granted. */
    remove(key: string) {
      try {
        which().removeItem(key);
      } catch {
        // Blocked storage holds nothing to clear.
      }
    },
  };
}
