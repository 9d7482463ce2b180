// The hub viewer API as the hub page calls it: the session in memory (and a cookie once consent allows).

export interface Card {
  id: string;
  title: string;
  description: string;
  cover_url: string;
}

export interface HubState {
  gate: 'password' | 'identification' | 'ready';
  fields: string[];
  hub: { title: string; intro: string; cta_label: string | null; cta_url: string | null; brand: unknown };
  viewer?: { name: string | null; email: string };
  collections: { id: string; name: string; entries: Card[] }[];
  session_token?: string;
}

export interface Opened {
  share_token: string;
  page_url: string;
  embed_url: string;
  session_token: string;
}

export class HubError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: { field: string; message: string }[] = [],
  ) {
    super(message);
  }
}

/**
 * Calls /v1/hub-viewer/:token. The session token is kept in memory and sent in `x-hub-session` (a cookie is
 * not sent from a cross-site iframe); before consent the server is told not to set cookies at all.
 */
export function hubApi(token: string, consent: { pending: boolean }) {
  const base = `/v1/hub-viewer/${encodeURIComponent(token)}`;
  let session: string | null = null;

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (session) headers['x-hub-session'] = session;
    if (consent.pending) headers['x-viewer-consent'] = 'pending';
    let response: Response;
    try {
      response = await fetch(base + path, {
        method,
        headers,
        credentials: 'same-origin',
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch {
      throw new HubError(0, 'No connection: check your network and try again.');
    }
    const json = (await response.json().catch(() => null)) as {
      data?: T & { session_token?: string };
      error?: { message: string; details?: { field: string; message: string }[] };
    } | null;
    if (!response.ok || !json?.data) {
      throw new HubError(response.status, json?.error?.message ?? 'Something went wrong', json?.error?.details ?? []);
    }
    // An open's session_token is the entry link's (for the player), not the hub's.
    if (json.data.session_token && !path.endsWith('/open')) session = json.data.session_token;
    return json.data;
  }

  return {
    state: () => call<HubState>('GET', ''),
    access: (form: Record<string, string>) => call<HubState>('POST', '/access', form),
    open: (entryId: string) => call<Opened>('POST', `/entries/${encodeURIComponent(entryId)}/open`),
  };
}
