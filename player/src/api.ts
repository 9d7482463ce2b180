import type { BootConfig, Bootstrap } from './config';
import { type Consent, consentedStorage, grantedConsent } from './consent';
import { languageQuery } from './language';
import type { PlayableDemo, TrackedEvent, ViewerState } from './wire';

/** An answer other than 2xx (status 0: no answer at all). */
export class ViewerError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds, from Retry-After on a 429. */
    readonly retryAfter: number | null = null,
    readonly details: { field: string; message: string }[] = [],
  ) {
    super(message);
  }
}

export interface LeadBody {
  id: string;
  step_number: number;
  values: Record<string, string | boolean>;
}

const SESSION_HEADER = 'x-viewer-session';

/**
 * A session a demo hub opened for this link (`#ds_session=…` in the player's address: never sent to the
 * server, never in a Referer), so a viewer who passed the hub's gates does not meet them again. Kept in
 * memory only; the fragment is removed from the address at once.
 */
function handedSession(): string | null {
  const match = /(?:^#|&)ds_session=([A-Za-z0-9_-]{20,100})/.exec(location.hash);
  if (!match) return null;
  history.replaceState(null, '', location.pathname + location.search);
  return match[1] ?? null;
}

/**
 * `consent`: the page's (consent.ts); before it is granted the session lives in memory and no cookie is asked for.
 * `bootstrap`: the page's answers to the first state and payload requests, used once each instead of asking.
 */
export function viewerApi(boot: BootConfig, consent: Consent = grantedConsent(), bootstrap: Bootstrap | null = null) {
  const base = `${boot.apiBase}/v1/viewer/${encodeURIComponent(boot.token)}`;
  const sessionKey = `demoshare:session:${boot.token}`;
  const stored = consentedStorage(consent, () => sessionStorage);
  // The session normally rides in an HttpOnly cookie, but a cookie is not sent from a cross-site iframe
  // (SameSite, third-party cookie blocking), nor set before consent: the same token then goes in X-Viewer-Session.
  // A session handed by a hub comes first (in memory only).
  const handed = handedSession();
  let session: string | null = handed ?? stored.get(sessionKey);
  /** A session issued while consent was pending (or handed by a hub): consent asks the server for its cookie. */
  let cookieless = handed !== null;
  // The page answered for the session it saw: with a session of our own that rode in no cookie (a hub's, or
  // one kept in a frame that gets no cookies), the API would answer for ours, so ask it.
  const usable = bootstrap && (session === null || (handed === null && bootstrap.cookie)) ? bootstrap : null;
  let primedState = usable?.state ?? null;
  // The payload only when it is in the languages this player would ask for.
  const languages = usable?.lang ? `?lang=${encodeURIComponent(usable.lang)}` : '';
  let primedDemo = usable?.demo && languageQuery() === languages ? usable.demo : null;

  function remember(state: { session_token?: string } | undefined, askedPending: boolean) {
    if (!state?.session_token) return;
    session = state.session_token;
    cookieless = askedPending;
    stored.set(sessionKey, session);
    // Consent came while the request was on its way: the answer set no cookie, so ask for it now.
    if (askedPending && consent.granted()) void tellConsent(true);
  }

  /** Where cookies go: the API's origin when it is not this page's; never before consent. */
  const credentials = (): RequestCredentials => (!consent.granted() ? 'omit' : boot.apiBase ? 'include' : 'same-origin');

  function headers(json: boolean): Record<string, string> {
    const out: Record<string, string> = { accept: 'application/json', ...consent.headers() };
    if (json) out['content-type'] = 'application/json';
    if (session) out[SESSION_HEADER] = session;
    return out;
  }

  /** The embedding page decided (docs/consent.md): the server sets or expires the cookie of this session. */
  async function tellConsent(granted: boolean) {
    if (!session) return;
    if (granted && !cookieless) return;
    try {
      // With the cookie even when withdrawing: a response read without credentials cannot expire it.
      await call('POST', '/consent', { granted }, { credentials: boot.apiBase ? 'include' : 'same-origin' });
      if (granted) cookieless = false;
    } catch {
      // The cookie is a convenience: the session goes on in memory and X-Viewer-Session.
    }
  }

  consent.onChange((granted) => {
    if (granted) {
      if (session) stored.set(sessionKey, session);
      void tellConsent(true);
    } else {
      stored.remove(sessionKey);
      cookieless = true;
      void tellConsent(false);
    }
  });

  async function call<T>(method: string, path: string, body?: unknown, init: RequestInit = {}): Promise<T> {
    let response: Response;
    try {
      response = await fetch(base + path, {
        method,
        // The gates are remembered in an HttpOnly cookie; the API may sit on another origin than the page.
        credentials: credentials(),
        headers: headers(body !== undefined),
        body: body === undefined ? undefined : JSON.stringify(body),
        ...init,
      });
    } catch {
      throw new ViewerError(0, 'network_error', 'Could not reach the server. Check your connection and try again.');
    }
    if (response.status === 202 || response.status === 204) return undefined as T;
    const json = (await response.json().catch(() => null)) as {
      data?: T;
      error?: { code: string; message: string; details?: { field: string; message: string }[] };
    } | null;
    if (!response.ok) {
      const retry = Number(response.headers.get('retry-after'));
      throw new ViewerError(
        response.status,
        json?.error?.code ?? 'internal_error',
        json?.error?.message ?? `The server answered ${response.status}.`,
        Number.isFinite(retry) && retry > 0 ? retry : null,
        json?.error?.details ?? [],
      );
    }
    return json?.data as T;
  }

  const gate = async (request: () => Promise<ViewerState>) => {
    const pending = !consent.granted();
    const state = await request();
    remember(state, pending);
    return state;
  };

  return {
    eventsUrl: `${base}/events`,
    state: () => {
      // Each of the page's answers once: a retry, or a look after a gate, asks the server.
      const first = primedState;
      primedState = null;
      if (!first) primedDemo = null;
      return gate(async () => first ?? call<ViewerState>('GET', ''));
    },
    unlock: (password: string) => gate(() => call<ViewerState>('POST', '/unlock', { password })),
    identify: (name: string, email: string) => gate(() => call<ViewerState>('POST', '/identify', { name, email })),
    /** The one gate form: password, name and e-mail in one submit (only the fields the state asks for). */
    access: (form: { password?: string; name?: string; email?: string }) => gate(() => call<ViewerState>('POST', '/access', form)),
    /** In the viewer's language where the demo has it (language.ts), else the original. */
    demo: async () => {
      const first = primedDemo;
      primedDemo = null;
      return first ?? call<PlayableDemo>('GET', `/demo${languageQuery()}`);
    },
    events: (events: TrackedEvent[]) => call<void>('POST', '/events', { events }),
    /** The lead form that stands in for the identification gate: its answer may start the viewer's session. */
    gateLead: async (lead: LeadBody) => {
      const pending = !consent.granted();
      const answer = await call<{ id: string; identified: boolean; gate?: string; session_token?: string }>('POST', '/leads', lead);
      remember(answer, pending);
      return answer;
    },
    /** A lead form's values; `id` is made by the player, so a resent lead is stored once. */
    lead: (lead: LeadBody) => call<{ id: string; identified: boolean }>('POST', '/leads', lead),
    /** For a request the page may not outlive (events on page hide). */
    keepalive: (events: TrackedEvent[] | LeadBody, path = '/events') =>
      fetch(base + path, {
        method: 'POST',
        keepalive: true,
        credentials: credentials(),
        headers: headers(true),
        body: JSON.stringify(Array.isArray(events) ? { events } : events),
      }).then(
        () => undefined,
        () => undefined,
      ),
    /** Fetches a gated asset with the session header, for when the cookie is not sent (cross-site frames). */
    assetAsDataUrl: async (url: string): Promise<string | null> => {
      if (!session) return null;
      try {
        const response = await fetch(url, { headers: { [SESSION_HEADER]: session }, credentials: 'omit' });
        if (!response.ok) return null;
        const blob = await response.blob();
        return await new Promise<string>((resolve, reject) => {
          const reader = new FileReader();
          reader.onload = () => resolve(String(reader.result));
          reader.onerror = () => reject(reader.error);
          reader.readAsDataURL(blob);
        });
      } catch {
        return null;
      }
    },
    /**
     * The text of a gated asset (an HTML snapshot): with the cookie where the browser sends it, and the
     * session header for frames where it does not.
     */
    assetText: async (url: string): Promise<string | null> => {
      try {
        const response = await fetch(url, {
          headers: session ? { [SESSION_HEADER]: session } : {},
          credentials: credentials(),
        });
        return response.ok ? await response.text() : null;
      } catch {
        return null;
      }
    },
  };
}

export type ViewerApi = ReturnType<typeof viewerApi>;
