import { type Changes, tags } from '../core/changes';
import type { Clock } from '../core/clock';
import { randomToken, sha256Hex, verifyPassword } from '../core/crypto';
import { AppError } from '../core/errors';
import type { RateLimitPolicy, RateLimits } from '../core/rate-limit';
import type { Database, Executor } from '../db/client';
import type { DemoReader } from '../demos/demos.reader';
import { emitEvent } from '../events/outbox';
import type { ShareRow } from '../shares/shares.schemas';
import type { AccessDecision } from '../shares/link-viewers';
import type { LinkState, ViewerCache } from './viewer-cache';
import * as repo from './viewer.repo';
import type { ViewerSessionRow } from './viewer.repo';

/** A viewer who just identified on a link, as the gates hand it on in the identification's transaction. */
export interface IdentifiedViewer {
  workspaceId: string;
  shareId: string;
  demoId: string;
  email: string;
  name: string | null;
  at: string;
}

export type Gate = 'password' | 'identification' | 'ready';

/** Who is knocking: recorded in the access log and on the view. */
export interface Visitor {
  ip: string;
  userAgent: string | null;
  referrer: string | null;
  /** The web app's session cookie, when the browser has one: a member's own views are internal. */
  appSession?: string;
}

export interface ViewerGatesDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  rateLimits: Pick<RateLimits, 'consume' | 'check'>;
  cache: Pick<ViewerCache, 'links' | 'sessions'>;
  changes: Pick<Changes, 'announce'>;
  demos: Pick<DemoReader, 'state'>;
  passwordAttempts: number;
  passwordWindowSeconds: number;
  sessionTtlMs: number;
  log: { warn(obj: object, msg: string): void };
  /** In the identification's transaction: what else must happen when a viewer identifies (notifications). */
  onIdentified?(tx: Executor, viewer: IdentifiedViewer): Promise<void>;
}

export interface Resolved {
  link: LinkState;
  session: ViewerSessionRow | undefined;
  gate: Gate;
}

export const gateError = (gate: string, code: 'not_found' | 'gone' | 'unauthorized' | 'forbidden', message: string) =>
  new AppError(code, message, { details: [{ field: 'gate', message: gate }] });

const cookieNames = new Map<string, string>();

/**
 * The cookie of one link: its name is derived from the link, so links never overwrite each other's.
 * Remembered for the busiest links: every viewer request needs it.
 */
export function viewerCookieName(linkToken: string): string {
  let name = cookieNames.get(linkToken);
  if (name === undefined) {
    name = `ds_view_${sha256Hex(linkToken).slice(0, 16)}`;
    if (cookieNames.size >= 10_000) cookieNames.clear();
    cookieNames.set(linkToken, name);
  }
  return name;
}

export function isAllowed(share: Pick<ShareRow, 'allowedEmails' | 'allowedDomains'>, email: string): boolean {
  if (share.allowedEmails.length === 0 && share.allowedDomains.length === 0) return true;
  const address = email.toLowerCase();
  if (share.allowedEmails.includes(address)) return true;
  const domain = address.slice(address.lastIndexOf('@') + 1);
  return share.allowedDomains.includes(domain);
}

/**
 * The gates of a share link, in DESIGN.md's order (unknown or revoked → expired → not published →
 * password → identification), and the viewer sessions that remember who passed them.
 */
export function createViewerGates(deps: ViewerGatesDeps) {
  const { db } = deps.database;
  const { clock, cache } = deps;
  const pwPolicy: RateLimitPolicy = { points: deps.passwordAttempts, duration: deps.passwordWindowSeconds };
  // A distributed guess across many addresses, or one address across many links, is capped too.
  const pwLinkPolicy: RateLimitPolicy = { points: deps.passwordAttempts * 20, duration: deps.passwordWindowSeconds };
  const pwIpPolicy: RateLimitPolicy = { points: deps.passwordAttempts * 4, duration: deps.passwordWindowSeconds };

  async function record(
    share: ShareRow,
    decision: AccessDecision,
    visitor: Visitor,
    identity?: { email?: string | null; name?: string | null },
  ) {
    try {
      await repo.insertAccessLog(db, {
        shareId: share.id,
        workspaceId: share.workspaceId,
        decision,
        at: clock.now(),
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

  async function findLink(token: string): Promise<LinkState | undefined> {
    if (token.length > 100) return undefined;
    return cache.links.load(
      token,
      (l) => [tags.share(l.share.id), tags.demo(l.share.demoId), tags.workspace(l.workspace.id)],
      async () => {
        const found = await repo.findLinkByToken(db, token);
        const demo = found && (await deps.demos.state(found.share.demoId));
        return found && demo
          ? { ...found, demoStatus: demo.status, version: demo.version, stepCount: demo.stepCount }
          : undefined;
      },
    );
  }

  async function findSession(sessionToken: string | undefined, share: ShareRow) {
    if (!sessionToken || sessionToken.length > 100) return undefined;
    const id = sha256Hex(sessionToken);
    const session = await cache.sessions.load(
      id,
      (s) => [tags.share(s.shareId), tags.session(s.id)],
      () => repo.findViewerSession(db, id),
    );
    // A session of another link, or an old one, is no session at all.
    if (!session || session.shareId !== share.id || session.expiresAt <= clock.now()) return undefined;
    return session;
  }

  function gateOf(share: ShareRow, session: ViewerSessionRow | undefined): Gate {
    if (share.passwordHash !== null && session?.passwordVersion !== share.passwordVersion) return 'password';
    if (share.requireIdentification && !(session?.viewerEmail && isAllowed(share, session.viewerEmail))) {
      return 'identification';
    }
    return 'ready';
  }

  /** The link-level gates; `visitor` set: denials are recorded. */
  async function resolve(token: string, sessionToken: string | undefined, visitor?: Visitor): Promise<Resolved> {
    const link = await findLink(token);
    if (!link) throw gateError('link', 'not_found', 'This link does not exist or has been revoked');
    const { share } = link;
    const session = await findSession(sessionToken, share);
    const identity = { email: session?.viewerEmail, name: session?.viewerName };
    if (share.revokedAt) {
      if (visitor) await record(share, 'revoked', visitor, identity);
      throw gateError('link', 'not_found', 'This link does not exist or has been revoked');
    }
    if (share.expiresAt && share.expiresAt <= clock.now()) {
      if (visitor) await record(share, 'expired', visitor, identity);
      throw gateError('expired', 'gone', 'This link has expired');
    }
    // A published demo always has a version; without one there would be nothing to serve but the draft.
    if (link.demoStatus !== 'published' || link.version === null) {
      if (visitor) await record(share, 'not_published', visitor, identity);
      throw gateError('not_published', 'not_found', 'This demo is not published yet');
    }
    return { link, session, gate: gateOf(share, session) };
  }

  /** The viewer's session, or a new one (whose token must be handed to the viewer: `issued`). */
  async function ensureSession(share: ShareRow, session: ViewerSessionRow | undefined, visitor: Visitor) {
    if (session) return { session, issued: undefined };
    const token = randomToken(32);
    const now = clock.now();
    const internal = visitor.appSession ? await repo.isMemberSession(db, sha256Hex(visitor.appSession), share.workspaceId, now) : false;
    const created = await repo.insertViewerSession(db, {
      internal,
      id: sha256Hex(token),
      shareId: share.id,
      demoId: share.demoId,
      workspaceId: share.workspaceId,
      passwordVersion: null,
      anonymousId: randomToken(12),
      referrer: visitor.referrer?.slice(0, 2048) ?? null,
      userAgent: visitor.userAgent?.slice(0, 500) ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + deps.sessionTtlMs),
    });
    return { session: created, issued: token as string | undefined };
  }

  /** GET /v1/viewer/:token: where the viewer stands. A viewer who may play gets a session here. */
  async function state(token: string, sessionToken: string | undefined, visitor: Visitor) {
    const resolved = await resolve(token, sessionToken, visitor);
    let { session } = resolved;
    let issued: string | undefined;
    const share = resolved.link.share;
    const identity = { email: session?.viewerEmail, name: session?.viewerName };
    if (resolved.gate === 'ready') {
      ({ session, issued } = await ensureSession(share, session, visitor));
      await record(share, 'granted', visitor, identity);
    } else {
      await record(share, resolved.gate === 'password' ? 'password_required' : 'identification_required', visitor, identity);
    }
    return { gate: resolved.gate, share, session, issued };
  }

  /** POST /v1/viewer/:token/unlock */
  async function unlock(token: string, sessionToken: string | undefined, password: string, visitor: Visitor) {
    const { link, session } = await resolve(token, sessionToken, visitor);
    const { share } = link;
    const identity = { email: session?.viewerEmail, name: session?.viewerName };
    if (share.passwordHash === null) {
      return { gate: gateOf(share, session), share, session, issued: undefined };
    }
    const keys = { pair: `${share.id}:${visitor.ip}`, link: share.id, ip: visitor.ip };
    try {
      // While blocked, even the right password is refused: otherwise the block would only slow guessing.
      await deps.rateLimits.check('share-password', pwPolicy, keys.pair);
      await deps.rateLimits.check('share-password-link', pwLinkPolicy, keys.link);
      await deps.rateLimits.check('share-password-ip', pwIpPolicy, keys.ip);
    } catch (error) {
      await record(share, 'blocked', visitor, identity);
      throw error;
    }
    if (!(await verifyPassword(share.passwordHash, password))) {
      await record(share, 'wrong_password', visitor, identity);
      await deps.rateLimits.consume('share-password', pwPolicy, keys.pair);
      await deps.rateLimits.consume('share-password-link', pwLinkPolicy, keys.link);
      await deps.rateLimits.consume('share-password-ip', pwIpPolicy, keys.ip);
      throw gateError('password', 'unauthorized', 'Wrong password');
    }
    const { session: unlocked, issued } = await ensureSession(share, session, visitor);
    const current = await repo.updateViewerSession(db, unlocked.id, { passwordVersion: share.passwordVersion });
    await deps.changes.announce(tags.session(current.id));
    await record(share, 'unlocked', visitor, identity);
    return { gate: gateOf(share, current), share, session: current, issued };
  }

  /** POST /v1/viewer/:token/identify */
  async function identify(
    token: string,
    sessionToken: string | undefined,
    viewer: { name: string; email: string },
    visitor: Visitor,
  ) {
    const { link, session } = await resolve(token, sessionToken, visitor);
    const { share } = link;
    const email = viewer.email.toLowerCase();
    if (share.passwordHash !== null && session?.passwordVersion !== share.passwordVersion) {
      await record(share, 'password_required', visitor, { email, name: viewer.name });
      throw gateError('password', 'unauthorized', 'Enter the password first');
    }
    if (!isAllowed(share, email)) {
      await record(share, 'not_allowed', visitor, { email, name: viewer.name });
      throw gateError(
        'identification',
        'forbidden',
        'This e-mail address is not allowed to view this demo: ask the person who shared it for access',
      );
    }
    const ensured = await ensureSession(share, session, visitor);
    const { issued } = ensured;
    const sessionId = ensured.session.id;
    const current = await db.transaction(async (tx) => {
      const updated = await repo.updateViewerSession(tx, sessionId, { viewerName: viewer.name, viewerEmail: email });
      await emitEvent(tx, clock, {
        workspaceId: share.workspaceId,
        kind: 'viewer.identified',
        data: {
          share_id: share.id,
          demo_id: share.demoId,
          viewer_email: email,
          viewer_name: viewer.name,
          identified_at: clock.now().toISOString(),
        },
      });
      await deps.onIdentified?.(tx, {
        workspaceId: share.workspaceId,
        shareId: share.id,
        demoId: share.demoId,
        email,
        name: viewer.name || null,
        at: clock.now().toISOString(),
      });
      return updated;
    });
    await deps.changes.announce(tags.session(sessionId));
    await record(share, 'identified', visitor, { email, name: viewer.name });
    return { gate: gateOf(share, current), share, session: current, issued };
  }

  /** The gates of every content request: a viewer who has not passed them gets 401 or 403 naming the gate. */
  async function requireReady(token: string, sessionToken: string | undefined, visitor: Visitor) {
    const resolved = await resolve(token, sessionToken, visitor);
    const identity = { email: resolved.session?.viewerEmail, name: resolved.session?.viewerName };
    if (resolved.gate === 'password') {
      await record(resolved.link.share, 'password_required', visitor, identity);
      throw gateError('password', 'unauthorized', 'This link needs its password: POST /v1/viewer/:token/unlock');
    }
    if (resolved.gate === 'identification') {
      await record(resolved.link.share, 'identification_required', visitor, identity);
      throw gateError('identification', 'forbidden', 'Identify first: POST /v1/viewer/:token/identify');
    }
    return resolved;
  }

  return { state, unlock, identify, resolve, requireReady };
}

export type ViewerGates = ReturnType<typeof createViewerGates>;
