import { tags } from '../core/changes';
import { type Actor, systemActor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { CredentialCache } from '../auth/credential-cache';
import type { AuthContext, Scope } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { hmacHex, randomBase62 } from '../core/crypto';
import { notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { Database } from '../db/client';
import * as repo from './oauth.repo';

export interface OAuthAppsDeps {
  database: Database;
  clock: Clock;
  credentials: CredentialCache;
  digestKey: Buffer;
}

export interface NewOAuthApp {
  name: string;
  redirectUris: string[];
  scopes: Scope[];
  isPublic: boolean;
}

export const CLIENT_SECRET_PREFIX = 'dss_';

/** Registration of client applications by workspace admins (web app, Settings → API → OAuth apps). */
export function createOAuthAppsService({ database, clock, credentials, digestKey }: OAuthAppsDeps) {
  const { db } = database;

  function newSecret() {
    const secret = `${CLIENT_SECRET_PREFIX}${randomBase62(43)}`;
    return { secret, digest: hmacHex(digestKey, secret), lastFour: secret.slice(-4) };
  }

  async function owned(auth: AuthContext, id: string) {
    const app = await repo.findApp(db, id);
    if (!app || app.workspaceId !== auth.workspaceId) throw notFound('OAuth app');
    return app;
  }

  async function create(auth: AuthContext, input: NewOAuthApp, actor: Actor) {
    const secret = input.isPublic ? null : newSecret();
    const app = await db.transaction(async (tx) => {
      const created = await repo.insertApp(tx, {
      id: newId('oauthApp'),
      workspaceId: auth.workspaceId,
      name: input.name,
      redirectUris: input.redirectUris,
      scopes: input.scopes,
      isPublic: input.isPublic,
      secretDigest: secret?.digest ?? null,
      secretLastFour: secret?.lastFour ?? null,
      createdById: auth.memberId,
      createdAt: clock.now(),
    });
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'oauth_app.created',
        target: { type: 'oauth_app', id: created.id, label: created.name },
        changes: { redirect_uris: created.redirectUris, scopes: created.scopes, is_public: created.isPublic },
      });
      return created;
    });
    return { app, clientSecret: secret?.secret ?? null };
  }

  async function list(auth: AuthContext, page: { limit: number; offset: number }) {
    return repo.listApps(db, auth.workspaceId, page);
  }

  /** A new secret replaces the old one at once; issued tokens stay valid. */
  async function rotateSecret(auth: AuthContext, id: string, actor: Actor) {
    const app = await owned(auth, id);
    if (app.isPublic) return { app, clientSecret: null };
    const secret = newSecret();
    const updated = await db.transaction(async (tx) => {
      const row = await repo.updateApp(tx, app.id, { secretDigest: secret.digest, secretLastFour: secret.lastFour });
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'oauth_app.secret_rotated',
        target: { type: 'oauth_app', id: app.id, label: app.name },
      });
      return row;
    });
    return { app: updated!, clientSecret: secret.secret };
  }

  /** Deleting an app ends every authorisation of it, and every token, at once. */
  async function remove(auth: AuthContext, id: string, actor: Actor) {
    const app = await owned(auth, id);
    const grants = await repo.grantIdsOfApp(db, app.id);
    await db.transaction(async (tx) => {
      await repo.deleteApp(tx, app.id);
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'oauth_app.deleted',
        target: { type: 'oauth_app', id: app.id, label: app.name },
        changes: { grants_ended: grants.length },
      });
    });
    await credentials.invalidate(...grants.map(tags.credential));
  }

  /**
   * The instance operator vouches for an app (or withdraws it): `demoshare oauth-apps verify <client_id>`.
   * Any workspace may authorise any app, so this is what the consent page offers users to judge a stranger's
   * app by. Recorded in the owner workspace's audit log, as the system's doing.
   */
  async function setVerified(clientId: string, verified: boolean) {
    const app = await repo.findApp(db, clientId);
    if (!app) throw notFound('OAuth app');
    return db.transaction(async (tx) => {
      const row = await repo.updateApp(tx, app.id, { verified });
      if (app.workspaceId && app.verified !== verified) {
        await recordAudit(tx, clock, systemActor(), {
          workspaceId: app.workspaceId,
          action: verified ? 'oauth_app.verified' : 'oauth_app.unverified',
          target: { type: 'oauth_app', id: app.id, label: app.name },
        });
      }
      return row!;
    });
  }

  /**
   * RFC 7591 dynamic registration (OAUTH_DYNAMIC_REGISTRATION): a public client of no workspace, like the
   * built-in recorder client, that any member of any workspace may authorise. Unverified until the
   * operator says otherwise; nothing to audit in a workspace, so the log line is the record.
   */
  async function register(input: { name: string; redirectUris: string[]; scopes: Scope[] }) {
    return repo.insertApp(db, {
      id: newId('oauthApp'),
      workspaceId: null,
      name: input.name,
      redirectUris: input.redirectUris,
      scopes: input.scopes,
      isPublic: true,
      secretDigest: null,
      secretLastFour: null,
      createdById: null,
      createdAt: clock.now(),
    });
  }

  return { create, list, rotateSecret, remove, setVerified, register };
}

export type OAuthAppsService = ReturnType<typeof createOAuthAppsService>;
