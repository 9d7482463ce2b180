// What a viewer does on a hub: its gates (as a link's), its session, the entries, opening one, covers.
import { randomToken, sha256Hex, verifyPassword } from '../core/crypto';
import type { Clock } from '../core/clock';
import { AppError, type ErrorDetail, invalid, notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { RateLimitPolicy, RateLimits } from '../core/rate-limit';
import type { Database } from '../db/client';
import type { DemoReader } from '../demos/demos.reader';
import type { Visitor } from '../viewing/viewer-gates.resolve';
import type { ViewerGates } from '../viewing/viewer-gates';
import { type Brand, brandOf } from '../workspaces/branding';
import type { WorkspacesReader } from '../workspaces/workspaces.reader';
import { type OnHubVisitorIdentified, saveHubIdentity } from './hub-identification';
import * as visits from './hub-visits.repo';
import type { HubSessionRow } from './hub-visits.repo';
import * as repo from './hubs.repo';
import type { HubRow } from './hubs.repo';
import { HUB_LEAD_FIELDS, type HubLeadField } from './hubs.tables';

export type HubGate = 'password' | 'identification' | 'ready';

/** Throws (404) when the request's host may not serve this workspace's hubs: `assertServedHere` bound to the request. */
export type ServedHere = (workspaceId: string) => void;

export interface HubViewerDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  rateLimits: Pick<RateLimits, 'consume' | 'check'>;
  demos: Pick<DemoReader, 'versionSnapshot' | 'asset'>;
  workspaces: Pick<WorkspacesReader, 'find'>;
  viewer: Pick<ViewerGates, 'openDelegated' | 'isInternal'>;
  passwordAttempts: number;
  passwordWindowSeconds: number;
  sessionTtlMs: number;
  /** Told, in the transaction, of each visitor who passes the form (the members' instant notices). */
  onIdentified?: OnHubVisitorIdentified;
}

/** What the one gate form sends: each field only where the gate asks for it. */
export interface HubAccessForm {
  password?: string;
  name?: string;
  email?: string;
  values?: Partial<Record<HubLeadField, string>>;
}

export function isAllowed(hub: Pick<HubRow, 'allowedEmails' | 'allowedDomains'>, email: string) {
  if (hub.allowedEmails.length === 0 && hub.allowedDomains.length === 0) return true;
  const address = email.toLowerCase();
  return hub.allowedEmails.includes(address) || hub.allowedDomains.includes(address.slice(address.lastIndexOf('@') + 1));
}

const identifies = (hub: HubRow) => hub.requireIdentification || hub.leadFields.length > 0;

export function gateOf(hub: HubRow, session: HubSessionRow | undefined): HubGate {
  if (hub.passwordHash !== null && session?.passwordVersion !== hub.passwordVersion) return 'password';
  if (identifies(hub) && !(session?.viewerEmail && isAllowed(hub, session.viewerEmail))) return 'identification';
  return 'ready';
}

/** The fields the gate form shows for this viewer, in order. */
export function gateFields(hub: HubRow, session: HubSessionRow | undefined): string[] {
  const gate = gateOf(hub, session);
  if (gate === 'ready') return [];
  const fields: string[] = [];
  if (gate === 'password') fields.push('password');
  if (identifies(hub) && !(session?.viewerEmail && isAllowed(hub, session.viewerEmail))) fields.push('name', 'email', ...hub.leadFields);
  return fields;
}

const gateError = (gate: string, code: 'not_found' | 'gone' | 'unauthorized' | 'forbidden', message: string, more: ErrorDetail[] = []) =>
  new AppError(code, message, { details: [{ field: 'gate', message: gate }, ...more] });

/**
 * The hub's viewer side. Gates in DESIGN.md's order for links (unknown → expired → password →
 * identification); a hub session remembers what was passed, and opening an entry hands the entry's link a
 * viewer session already past the same gates (`viewer.openDelegated`), so nothing is asked twice.
 *
 * @example
 * const hv = createHubViewer({ ...kernel, demos, workspaces, viewer, passwordAttempts: 5, passwordWindowSeconds: 900, sessionTtlMs });
 * const { gate, session, issued } = await hv.state(token, sessionToken, visitor);
 */
export function createHubViewer(deps: HubViewerDeps) {
  const { db } = deps.database;

  /** `servedHere` throws for a hub asked for on another workspace's custom domain (assertServedHere). */
  async function resolve(token: string, sessionToken: string | undefined, servedHere: ServedHere) {
    const hub = token.length <= 100 ? await repo.findHubByToken(db, token) : undefined;
    if (!hub) throw gateError('hub', 'not_found', 'This hub does not exist or has been deleted');
    servedHere(hub.workspaceId);
    if (hub.expiresAt && hub.expiresAt <= deps.clock.now()) throw gateError('expired', 'gone', 'This hub has expired');
    let session: HubSessionRow | undefined;
    if (sessionToken && sessionToken.length <= 100) {
      const found = await visits.findSession(db, sha256Hex(sessionToken));
      if (found && found.hubId === hub.id && found.expiresAt > deps.clock.now()) session = found;
    }
    return { hub, session };
  }

  async function ensureSession(hub: HubRow, session: HubSessionRow | undefined, visitor: Visitor) {
    if (session) return { session, issued: undefined };
    const token = randomToken(32);
    const now = deps.clock.now();
    const created = await visits.insertSession(db, {
      // A signed-in member's own visit, as their views: not counted, not a visitor.
      internal: await deps.viewer.isInternal(visitor, hub.workspaceId),
      id: sha256Hex(token),
      hubId: hub.id,
      workspaceId: hub.workspaceId,
      referrer: visitor.referrer?.slice(0, 2048) ?? null,
      userAgent: visitor.userAgent?.slice(0, 500) ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + deps.sessionTtlMs),
    });
    return { session: created, issued: token as string | undefined };
  }

  async function brand(hub: HubRow): Promise<Brand> {
    const workspace = await deps.workspaces.find(hub.workspaceId);
    if (!workspace) throw notFound('Hub');
    return brandOf(workspace, '');
  }

  /** Where the viewer stands; a visit (a hub session) starts at the first look, gated or not. */
  async function state(token: string, sessionToken: string | undefined, visitor: Visitor, servedHere: ServedHere) {
    const resolved = await resolve(token, sessionToken, servedHere);
    const { hub } = resolved;
    const { session, issued } = await ensureSession(hub, resolved.session, visitor);
    return { hub, session, issued, gate: gateOf(hub, session) };
  }

  async function attemptPassword(hub: HubRow & { passwordHash: string }, password: string, visitor: Visitor) {
    const duration = deps.passwordWindowSeconds;
    const pair: RateLimitPolicy = { points: deps.passwordAttempts, duration };
    const perIp: RateLimitPolicy = { points: deps.passwordAttempts * 4, duration };
    const perHub: RateLimitPolicy = { points: deps.passwordAttempts * 20, duration };
    const keys = { pair: `${hub.id}:${visitor.ip}`, hub: hub.id, ip: visitor.ip };
    // While blocked, even the right password is refused; the budgets are the links' (one per address pair).
    await deps.rateLimits.check('share-password', pair, keys.pair);
    await deps.rateLimits.check('share-password-link', perHub, keys.hub);
    await deps.rateLimits.check('share-password-ip', perIp, keys.ip);
    if (await verifyPassword(hub.passwordHash, password)) return true;
    await deps.rateLimits.consume('share-password', pair, keys.pair);
    await deps.rateLimits.consume('share-password-link', perHub, keys.hub);
    await deps.rateLimits.consume('share-password-ip', perIp, keys.ip);
    return false;
  }

  /** Passes every gate the viewer still stands at in one submit; nothing is stored unless all pass. */
  async function access(token: string, sessionToken: string | undefined, form: HubAccessForm, visitor: Visitor, servedHere: ServedHere) {
    const resolved = await resolve(token, sessionToken, servedHere);
    const { hub } = resolved;
    const asks = gateFields(hub, resolved.session);
    const missing: ErrorDetail[] = [];
    for (const field of asks) {
      const value = field === 'password' || field === 'name' || field === 'email' ? form[field] : form.values?.[field as HubLeadField];
      if (!value?.trim()) missing.push({ field, message: field === 'password' ? 'Enter the password you were given' : `Enter your ${field.replace('_', ' ')}` });
    }
    if (missing.length > 0) throw invalid(missing.map((m) => m.message).join('; '), missing);
    if (asks.includes('password') && hub.passwordHash !== null) {
      if (!(await attemptPassword({ ...hub, passwordHash: hub.passwordHash }, form.password!, visitor))) {
        throw gateError('password', 'unauthorized', 'Wrong password', [{ field: 'password', message: 'That password is not correct' }]);
      }
    }
    const email = asks.includes('email') ? form.email!.toLowerCase() : undefined;
    if (email && !isAllowed(hub, email)) {
      throw gateError('identification', 'forbidden', 'This e-mail address is not allowed to view this hub: ask the person who shared it for access', [
        { field: 'email', message: 'This address is not allowed to view this hub' },
      ]);
    }
    const ensured = await ensureSession(hub, resolved.session, visitor);
    const values = Object.fromEntries(HUB_LEAD_FIELDS.filter((f) => asks.includes(f)).map((f) => [f, form.values![f]!.trim().slice(0, 200)]));
    const also = asks.includes('password') ? { passwordVersion: hub.passwordVersion } : {};
    // An open hub asks nothing: what was sent is ignored and the session stays as it is.
    const session = email
      ? await saveHubIdentity(deps, hub, ensured.session.id, { email, name: form.name!.trim().slice(0, 200), values }, also)
      : asks.includes('password')
        ? await visits.updateSession(db, ensured.session.id, also)
        : ensured.session;
    return { hub, session, issued: ensured.issued, gate: gateOf(hub, session) };
  }

  /** The hub's collections and their available entries, for a viewer at the `ready` gate. */
  async function content(hub: HubRow) {
    const [collections, entries] = await Promise.all([repo.listCollections(db, hub.id), repo.listEntries(db, hub.id)]);
    const available = entries.filter((e) => e.demoStatus === 'published' && !e.shareRevoked);
    return collections
      .map((c) => ({ collection: c, entries: available.filter((e) => e.entry.collectionId === c.id) }))
      .filter((c) => c.entries.length > 0);
  }

  /**
   * Opens an entry for a viewer past the hub's gates: one "demo opened" for the hub, and a viewer session
   * on the entry's link carrying the hub session's identity (its token for the player).
   */
  async function open(token: string, sessionToken: string | undefined, entryId: string, visitor: Visitor, servedHere: ServedHere) {
    const { hub, session } = await resolve(token, sessionToken, servedHere);
    const gate = gateOf(hub, session);
    if (gate === 'password') throw gateError('password', 'unauthorized', 'This hub needs its password first');
    if (gate === 'identification') throw gateError('identification', 'forbidden', 'Identify on the hub first');
    const listing = (await repo.listEntries(db, hub.id)).find((e) => e.entry.id === entryId);
    if (!listing || listing.shareRevoked || listing.demoStatus !== 'published') throw notFound('Entry');
    const opened = await deps.viewer.openDelegated(
      listing.shareToken,
      { email: session?.viewerEmail ?? null, name: session?.viewerName ?? null },
      visitor,
    );
    const internal = session?.internal ?? (await deps.viewer.isInternal(visitor, hub.workspaceId));
    await visits.insertOpen(db, { id: newId('hubOpen'), hubId: hub.id, entryId, sessionId: session?.id ?? null, internal, at: deps.clock.now() });
    return { hub, shareToken: listing.shareToken, sessionToken: opened.token };
  }

  /**
   * An entry's cover: the uploaded one, else (only on a hub without a password, where the first screen is
   * not behind anything) the published demo's first screen. Public to whoever holds the hub's address, as a
   * link's preview image is.
   */
  async function cover(token: string, entryId: string, servedHere: ServedHere) {
    const { hub } = await resolve(token, undefined, servedHere);
    const listing = (await repo.listEntries(db, hub.id)).find((e) => e.entry.id === entryId);
    if (!listing || listing.shareRevoked || listing.demoStatus !== 'published') throw notFound('Cover');
    const uploaded = await repo.findCover(db, entryId);
    if (uploaded) return { contentType: uploaded.contentType, bytes: uploaded.bytes, sha256: uploaded.sha256 };
    if (hub.passwordHash !== null) throw notFound('Cover');
    const version = await deps.demos.versionSnapshot(listing.entry.demoId);
    const first = version?.snapshot.steps.find((s) => s.image_asset_id)?.image_asset_id;
    const asset = first ? await deps.demos.asset(listing.entry.demoId, first) : undefined;
    if (!asset?.contentType.startsWith('image/')) throw notFound('Cover');
    return { contentType: asset.contentType, bytes: asset.bytes, sha256: asset.sha256 };
  }

  return { state, access, content, open, cover, brand, resolve };
}

export type HubViewer = ReturnType<typeof createHubViewer>;
