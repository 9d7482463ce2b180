// The link-level gates (unknown or revoked, expired, not published) and the gate of every content request.
import { tags } from '../core/changes';
import type { Clock } from '../core/clock';
import { sha256Hex } from '../core/crypto';
import { AppError } from '../core/errors';
import type { Database } from '../db/client';
import type { AccessDecision } from '../shares/link-viewers';
import type { ShareRow } from '../shares/shares.schemas';
import type { LinkState, ViewerCache } from './viewer-cache';
import * as repo from './viewer.repo';
import type { ViewerSessionRow } from './viewer.repo';
import type { WarningLog } from '../core/log';
import { type LinkArms, servedLink } from './link-arms';

export type Gate = 'password' | 'identification' | 'ready';

/** Who is knocking: recorded in the access log and on the view. */
export interface Visitor {
  ip: string;
  userAgent: string | null;
  referrer: string | null;
  /** The web app's session cookie, when the browser has one: a member's own views are internal. */
  appSession?: string;
  /**
   * The page that embeds the player has not granted consent yet (`X-Viewer-Consent: pending`,
   * docs/consent.md): no cookie is set and a new session gets no visitor id.
   */
  consentPending?: boolean;
}

export interface Resolved {
  link: LinkState;
  session: ViewerSessionRow | undefined;
  gate: Gate;
}

/** What resolving a link reads: the database, the clock, the viewer cache, a logger. */
export interface ResolveDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  cache: Pick<ViewerCache, 'links' | 'sessions' | 'assignedArm' | 'rememberArm'>;
  log: WarningLog;
  /** A/B tests (the experiments module's, read when called): the arm a viewer session is served. */
  readonly arms?: LinkArms;
}

export const gateError = (gate: string, code: 'not_found' | 'gone' | 'unauthorized' | 'forbidden', message: string) =>
  new AppError(code, message, { details: [{ field: 'gate', message: gate }] });

export function isAllowed(share: Pick<ShareRow, 'allowedEmails' | 'allowedDomains'>, email: string): boolean {
  if (share.allowedEmails.length === 0 && share.allowedDomains.length === 0) return true;
  const address = email.toLowerCase();
  if (share.allowedEmails.includes(address)) return true;
  const domain = address.slice(address.lastIndexOf('@') + 1);
  return share.allowedDomains.includes(domain);
}

/** The gate a viewer with this session stands at on this link. */
export function gateOf(share: ShareRow, session: ViewerSessionRow | undefined): Gate {
  if (share.passwordHash !== null && session?.passwordVersion !== share.passwordVersion) return 'password';
  if (share.requireIdentification && !(session?.viewerEmail && isAllowed(share, session.viewerEmail))) {
    return 'identification';
  }
  return 'ready';
}

/** One gate decision into the link's access log; a lost line is logged, never the viewer's failure. */
export async function recordDecision(
  deps: Pick<ResolveDeps, 'database' | 'clock' | 'log'>,
  share: ShareRow,
  decision: AccessDecision,
  visitor: Visitor,
  identity?: { email?: string | null; name?: string | null },
) {
  try {
    await repo.insertAccessLog(deps.database.db, {
      shareId: share.id,
      workspaceId: share.workspaceId,
      decision,
      at: deps.clock.now(),
      ip: visitor.ip,
      userAgent: visitor.userAgent?.slice(0, 500) ?? null,
      viewerEmail: identity?.email ?? null,
      viewerName: identity?.name ?? null,
    });
  } catch (error) {
    // The decision stands; a lost log line is not worth failing the viewer's request.
    deps.log.warn({ err: error, share_id: share.id }, 'could not record a share access decision');
  }
}

/** The workspace of a link's token (any state), for the custom-domain check (`assertServedHere`). */
export async function linkWorkspace(deps: ResolveDeps, token: string): Promise<string | undefined> {
  return (await findLink(deps, token))?.share.workspaceId;
}

async function findLink(deps: ResolveDeps, token: string): Promise<LinkState | undefined> {
  if (token.length > 100) return undefined;
  return deps.cache.links.load(
    token,
    (l) => [tags.share(l.share.id), tags.demo(l.share.demoId), tags.workspace(l.workspace.id)],
    () => repo.findLinkByToken(deps.database.db, token),
  );
}

async function findSession(deps: ResolveDeps, sessionToken: string | undefined, share: ShareRow) {
  if (!sessionToken || sessionToken.length > 100) return undefined;
  const id = sha256Hex(sessionToken);
  const session = await deps.cache.sessions.load(
    id,
    (s) => [tags.share(s.shareId), tags.session(s.id)],
    () => repo.findViewerSession(deps.database.db, id),
  );
  // A session of another link, or an old one, is no session at all.
  if (!session || session.shareId !== share.id || session.expiresAt <= deps.clock.now()) return undefined;
  return session;
}

/**
 * The link as this viewer is served it: under an A/B test, the arm's demo. The arm is the session's own
 * once given (written on the session, so a viewer stays on it); a new one is picked by weight from the
 * viewer's e-mail when known (the same person gets the same arm on another device, without cookies) or
 * from the session's random key. Without a session: the first arm.
 */
async function servedTo(deps: ResolveDeps, link: LinkState, session: ViewerSessionRow | undefined) {
  const arms = deps.arms;
  if (!arms) return { link };
  const sticky = session ? (deps.cache.assignedArm(session.id) ?? session.armId) : null;
  const arm = await arms.serve(link.share.id, sticky, session ? (session.viewerEmail ?? session.anonymousId) : null);
  if (!arm) return { link };
  // Written only once the viewer is past the gates: a refused request changes nothing.
  const keep =
    session && sticky !== arm.armId
      ? async () => {
          try {
            await repo.updateViewerSession(deps.database.db, session.id, { armId: arm.armId });
            deps.cache.rememberArm(session.id, arm.armId);
          } catch (error) {
            // The arm is still served; the next request picks the same one from the same key.
            deps.log.warn({ err: error, share_id: link.share.id }, 'could not record a viewer session arm');
          }
        }
      : undefined;
  return { link: servedLink(link, arm), keep };
}

/**
 * The link-level gates, in DESIGN.md's order (unknown or revoked → expired → not published); `visitor`
 * set: denials are recorded. Answers the gate the viewer stands at next.
 */
export async function resolve(
  deps: ResolveDeps,
  token: string,
  sessionToken: string | undefined,
  visitor?: Visitor,
): Promise<Resolved> {
  const found = await findLink(deps, token);
  if (!found) throw gateError('link', 'not_found', 'This link does not exist or has been revoked');
  const session = await findSession(deps, sessionToken, found.share);
  const identity = { email: session?.viewerEmail, name: session?.viewerName };
  if (found.share.revokedAt) {
    if (visitor) await recordDecision(deps, found.share, 'revoked', visitor, identity);
    throw gateError('link', 'not_found', 'This link does not exist or has been revoked');
  }
  if (found.share.expiresAt && found.share.expiresAt <= deps.clock.now()) {
    if (visitor) await recordDecision(deps, found.share, 'expired', visitor, identity);
    throw gateError('expired', 'gone', 'This link has expired');
  }
  // Under an A/B test the arm's demo is what must be published: its own state replaces the link's.
  const { link, keep } = await servedTo(deps, found, session);
  const { share } = link;
  // A published demo always has a version; without one there would be nothing to serve but the draft.
  if (link.demoStatus !== 'published' || link.version === null) {
    if (visitor) await recordDecision(deps, share, 'not_published', visitor, identity);
    throw gateError('not_published', 'not_found', 'This demo is not published yet');
  }
  const gate = gateOf(share, session);
  if (gate === 'ready') await keep?.();
  return { link, session, gate };
}

/**
 * The gates of every content request: a viewer who has not passed them gets 401 or 403 naming the gate.
 *
 * @example
 * const { link, session } = await requireReady(deps, token, sessionToken, visitor);
 */
export async function requireReady(
  deps: ResolveDeps,
  token: string,
  sessionToken: string | undefined,
  visitor: Visitor,
): Promise<Resolved> {
  const resolved = await resolve(deps, token, sessionToken, visitor);
  const identity = { email: resolved.session?.viewerEmail, name: resolved.session?.viewerName };
  if (resolved.gate === 'password') {
    await recordDecision(deps, resolved.link.share, 'password_required', visitor, identity);
    throw gateError('password', 'unauthorized', 'This link needs its password: POST /v1/viewer/:token/unlock');
  }
  if (resolved.gate === 'identification') {
    await recordDecision(deps, resolved.link.share, 'identification_required', visitor, identity);
    throw gateError('identification', 'forbidden', 'Identify first: POST /v1/viewer/:token/identify');
  }
  return resolved;
}
