// GET /v1/viewer/:token: where the viewer stands; a viewer who may play gets a session here.
import type { ViewerGatesDeps } from './viewer-gates';
import { recordDecision, resolve, type Visitor } from './viewer-gates.resolve';
import { ensureSession } from './viewer-gates.session';

/** The gate the viewer stands at, recorded; at the `ready` gate, their session (new or not). */
export async function state(deps: ViewerGatesDeps, token: string, sessionToken: string | undefined, visitor: Visitor) {
  const resolved = await resolve(deps, token, sessionToken, visitor);
  let { session } = resolved;
  let issued: string | undefined;
  const share = resolved.link.share;
  const identity = { email: session?.viewerEmail, name: session?.viewerName };
  if (resolved.gate === 'ready') {
    ({ session, issued } = await ensureSession(deps, share, session, visitor));
    await recordDecision(deps, share, 'granted', visitor, identity);
  } else {
    await recordDecision(deps, share, resolved.gate === 'password' ? 'password_required' : 'identification_required', visitor, identity);
  }
  return { gate: resolved.gate, share, link: resolved.link, session, issued };
}
