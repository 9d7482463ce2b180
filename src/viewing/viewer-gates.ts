// The gates of a share link put together for the routes: one file per gate (viewer-gates.<gate>.ts).
import type { Changes } from '../core/changes';
import type { RateLimits } from '../core/rate-limit';
import { access } from './viewer-gates.access';
import { identify, type OnViewerIdentified } from './viewer-gates.identification';
import { unlock } from './viewer-gates.password';
import { linkWorkspace, type ResolveDeps, recordDecision, requireReady, resolve } from './viewer-gates.resolve';
import { state } from './viewer-gates.state';
import { identifyByLead, viewOfSession } from './viewer-gates.form';
import { ensureSession, isInternal, openDelegated } from './viewer-gates.session';
import { consent } from './viewer-consent';

/** What the gates need: what resolving a link reads, and what the password and identification gates change. */
export interface ViewerGatesDeps extends ResolveDeps {
  rateLimits: Pick<RateLimits, 'consume' | 'check'>;
  changes: Pick<Changes, 'announce'>;
  passwordAttempts: number;
  passwordWindowSeconds: number;
  sessionTtlMs: number;
  /** In the identification's transaction: what else must happen when a viewer identifies (notifications). */
  onIdentified?: OnViewerIdentified;
}

/**
 * The gates of a share link, in DESIGN.md's order (unknown or revoked → expired → not published →
 * password → identification), and the viewer sessions that remember who passed them. Each gate is a
 * function of its own file taking these deps first; this binds them for the routes.
 *
 * @example
 * const gates = createViewerGates({ ...kernel, cache, passwordAttempts: 5,
 *   passwordWindowSeconds: 900, sessionTtlMs: 86_400_000 });
 * const { gate, session, issued } = await gates.state(token, sessionToken, visitor);
 */
export function createViewerGates(deps: ViewerGatesDeps) {
  return {
    state: (...args: Tail<Parameters<typeof state>>) => state(deps, ...args),
    unlock: (...args: Tail<Parameters<typeof unlock>>) => unlock(deps, ...args),
    identify: (...args: Tail<Parameters<typeof identify>>) => identify(deps, ...args),
    access: (...args: Tail<Parameters<typeof access>>) => access(deps, ...args),
    resolve: (...args: Tail<Parameters<typeof resolve>>) => resolve(deps, ...args),
    linkWorkspace: (token: string) => linkWorkspace(deps, token),
    requireReady: (...args: Tail<Parameters<typeof requireReady>>) => requireReady(deps, ...args),
    // For the lead forms (src/leads): a session for a viewer at the gate form, who they are once they sent it.
    ensureSession: (...args: Tail<Parameters<typeof ensureSession>>) => ensureSession(deps, ...args),
    identifyByLead: (...args: Tail<Parameters<typeof identifyByLead>>) => identifyByLead(deps, ...args),
    viewOfSession: (...args: Tail<Parameters<typeof viewOfSession>>) => viewOfSession(deps, ...args),
    recordDecision: (...args: Tail<Parameters<typeof recordDecision>>) => recordDecision(deps, ...args),
    // For demo hubs (src/hubs): a session on an entry's link, already past the gates the hub checked.
    openDelegated: (...args: Tail<Parameters<typeof openDelegated>>) => openDelegated(deps, ...args),
    /** For demo hubs too: whether a visit is a signed-in member's own (not counted). */
    isInternal: (...args: Tail<Parameters<typeof isInternal>>) => isInternal(deps, ...args),
    /** The embedding page's consent (docs/consent.md). */
    consent: (...args: Tail<Parameters<typeof consent>>) => consent(deps, ...args),
  };
}

type Tail<T extends unknown[]> = T extends [unknown, ...infer Rest] ? Rest : never;

export type ViewerGates = ReturnType<typeof createViewerGates>;
