// GET /v1/viewer/:token: where the viewer stands; a viewer who may play gets a session here.
import { tags } from '../core/changes';
import type { ViewerGatesDeps } from './viewer-gates';
import { recordDecision, resolve, type Visitor } from './viewer-gates.resolve';
import { ensureSession } from './viewer-gates.session';

/** How the viewer page asks for the state (viewer-bootstrap.ts); the API asks with none. */
export interface StateOptions {
  /** The token of the session to open, drawn by the caller (whose answer's headers already carry its cookie). */
  newToken?: string;
  /**
   * Given: the access-log line is handed to it, for the caller to write once its answer has gone, instead of
   * being written before this returns.
   */
  later?: (write: () => Promise<void>) => void;
}

/** The gate the viewer stands at, recorded; at the `ready` gate, their session (new or not). */
export async function state(deps: ViewerGatesDeps, token: string, sessionToken: string | undefined, visitor: Visitor, options: StateOptions = {}) {
  const resolved = await resolve(deps, token, sessionToken, visitor);
  let { session, link } = resolved;
  let issued: string | undefined;
  const share = resolved.link.share;
  const identity = { email: session?.viewerEmail, name: session?.viewerName };
  let decision: () => Promise<void>;
  if (resolved.gate === 'ready') {
    ({ session, issued } = await ensureSession(deps, share, session, visitor, options.newToken));
    // A new session into the cache at once: the viewer's next request (the page's first picture, asked for
    // while the page is still arriving) finds it there. Nothing has changed it since: its token is new.
    if (issued) {
      const created = session;
      await deps.cache.sessions.load(created.id, (s) => [tags.share(s.shareId), tags.session(s.id)], async () => created);
      // Under an A/B test, a viewer without a session was shown the first arm: the new session's own arm
      // (picked by weight from its key, and written on it) is what the page inlines and the player plays.
      if (link.arm) link = (await resolve(deps, token, issued)).link;
    }
    decision = () => recordDecision(deps, share, 'granted', visitor, identity);
  } else {
    const refused = resolved.gate === 'password' ? 'password_required' : 'identification_required';
    decision = () => recordDecision(deps, share, refused, visitor, identity);
  }
  if (options.later) options.later(decision);
  else await decision();
  return { gate: resolved.gate, share, link, session, issued };
}
