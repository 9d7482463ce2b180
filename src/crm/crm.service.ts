// The workspace's HubSpot connection (Settings → HubSpot): the token checked and sealed, the status, the sync log and re-sync.
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import type { Config } from '../config';
import type { Clock } from '../core/clock';
import { seal } from '../core/crypto';
import { AppError, invalid } from '../core/errors';
import type { LimitOffset } from '../core/pagination';
import { resolveDateFilter } from '../core/time';
import type { Database } from '../db/client';
import { historyBetween } from './crm-history.repo';
import { historyItems } from './crm-history';
import * as repo from './crm.repo';
import { type HubSpotStatus, toHubSpotStatus } from './crm.schemas';
import type { CrmItemStatus } from './crm.tables';
import { hubSpotClient } from './hubspot.client';

/** What the service is built from: the kernel's database, clock, sealing key and config. */
export interface CrmDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  secrets: { sealing: Buffer };
  config: Pick<Config, 'HUBSPOT_API_URL' | 'WEBHOOK_TIMEOUT'>;
  /** Where the notes' links point (APP_URL). */
  appUrl: string;
}

/** Rows of history one backfill reads at most; more asks for a later `since`. */
export const BACKFILL_MAX_ROWS = 100_000;

/**
 * The HubSpot connection of a workspace: read (never the token), saved (checked with HubSpot first, sealed,
 * an audit entry; a paused sync resumes), removed (with its queue and log), its sync log, and re-sync.
 *
 * @example
 * const crm = createCrmService(kernel);
 * await crm.connect(auth, { token: 'pat-na1-...' }, actor);
 * await crm.resync(auth, { email: 'ada@example.com' });
 */
export function createCrmService(deps: CrmDeps) {
  const { db } = deps.database;
  const apiUrl = deps.config.HUBSPOT_API_URL;

  async function status(workspaceId: string): Promise<HubSpotStatus> {
    const [row, counts] = await Promise.all([repo.findConnection(db, workspaceId), repo.countByStatus(db, workspaceId)]);
    return toHubSpotStatus(row, counts, apiUrl, deps.clock.now());
  }

  /** Asks HubSpot for one contact with the token: a refused token is a 400 naming `token`, nothing saved. */
  async function checkToken(token: string): Promise<void> {
    const client = hubSpotClient({ baseUrl: apiUrl, token, timeoutMs: deps.config.WEBHOOK_TIMEOUT, now: () => deps.clock.now() });
    const answer = await client.checkToken();
    if (answer.kind === 'ok') return;
    if (answer.kind === 'refused' || answer.kind === 'invalid') {
      const why = answer.status === 403 ? 'the token lacks a scope the sync needs (crm.objects.contacts.read and .write)' : 'the token is not valid';
      throw invalid(`HubSpot refused the token (HTTP ${answer.status}: ${answer.message}): ${why}`, [{ field: 'token', message: answer.message }]);
    }
    const retry = answer.kind === 'rate_limited' ? { headers: { 'retry-after': String(Math.ceil(answer.waitMs / 1000)) } } : {};
    throw new AppError(
      'unavailable',
      answer.kind === 'rate_limited'
        ? `HubSpot is rate limiting this account (${answer.message}): try again in a few seconds`
        : `${answer.message}: the token was not saved, try again later`,
      retry,
    );
  }

  async function connect(auth: AuthContext, input: { token: string }, actor: Actor): Promise<HubSpotStatus> {
    await checkToken(input.token);
    await db.transaction(async (tx) => {
      const current = await repo.lockConnection(tx, auth.workspaceId);
      const now = deps.clock.now();
      await repo.saveConnection(tx, {
        workspaceId: auth.workspaceId,
        tokenSealed: seal(deps.secrets.sealing, input.token),
        tokenLast4: input.token.slice(-4),
        status: 'active',
        pausedReason: null,
        pausedAt: null,
        notBefore: null,
        connectedById: auth.userId,
        connectedAt: now,
        createdAt: now,
        updatedAt: now,
      });
      // What waited for a working token goes now.
      if (current?.status === 'paused') await repo.releaseWaiting(tx, auth.workspaceId, now);
      await recordAudit(tx, deps.clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'workspace.changed',
        target: { type: 'workspace', id: auth.workspaceId },
        changes: { 'crm.hubspot_key_last4': { from: current?.tokenLast4 ?? null, to: input.token.slice(-4) } },
      });
      await repo.notifySync(tx);
    });
    return status(auth.workspaceId);
  }

  async function disconnect(auth: AuthContext, actor: Actor): Promise<void> {
    await db.transaction(async (tx) => {
      const current = await repo.lockConnection(tx, auth.workspaceId);
      if (!current || !(await repo.deleteConnection(tx, auth.workspaceId))) return;
      await recordAudit(tx, deps.clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'workspace.changed',
        target: { type: 'workspace', id: auth.workspaceId },
        changes: { 'crm.hubspot_key_last4': { from: current.tokenLast4, to: null } },
      });
    });
  }

  function log(auth: AuthContext, filter: { status?: CrmItemStatus; email?: string }, range: LimitOffset) {
    return repo.listItems(db, auth.workspaceId, { ...filter, email: filter.email?.toLowerCase() }, range);
  }

  async function resync(auth: AuthContext, input: { email?: string; since?: string }): Promise<{ queued: number }> {
    return db.transaction(async (tx) => {
      const connection = await repo.lockConnection(tx, auth.workspaceId);
      if (!connection) throw new AppError('conflict', 'HubSpot is not connected: save a token first (PUT /v1/crm/hubspot)');
      const queued = await repo.requeue(
        tx,
        auth.workspaceId,
        { email: input.email?.toLowerCase(), since: input.since ? resolveDateFilter(input.since, false) : undefined },
        deps.clock.now(),
      );
      if (queued > 0) await repo.notifySync(tx);
      return { queued };
    });
  }

  /**
   * Queues one item per address that was identified before the connection (since `since`, when given): its
   * contact and a note summing up what it did. An address already sent by an earlier backfill is skipped.
   */
  async function backfill(auth: AuthContext, input: { since?: string }): Promise<{ contacts: number; queued: number }> {
    const connection = await repo.findConnection(db, auth.workspaceId);
    if (!connection) throw new AppError('conflict', 'HubSpot is not connected: save a token first (PUT /v1/crm/hubspot)');
    const since = input.since ? resolveDateFilter(input.since, false) : null;
    // Read outside the transaction: the embedded database has one connection, and this can be a long read.
    const rows = await historyBetween(db, auth.workspaceId, since, connection.connectedAt, BACKFILL_MAX_ROWS + 1);
    if (rows.length > BACKFILL_MAX_ROWS) {
      throw invalid(`More than ${BACKFILL_MAX_ROWS} views, leads and hub identifications to send: choose a later since`, [
        { field: 'since', message: `at most ${BACKFILL_MAX_ROWS} rows of history at once` },
      ]);
    }
    const items = historyItems(auth.workspaceId, rows, deps.appUrl, deps.clock.now());
    const queued = await db.transaction(async (tx) => {
      if (!(await repo.lockConnection(tx, auth.workspaceId))) throw new AppError('conflict', 'HubSpot was disconnected meanwhile');
      const inserted = await repo.insertNewItems(tx, items);
      if (inserted > 0) await repo.notifySync(tx);
      return inserted;
    });
    return { contacts: items.length, queued };
  }

  return { status, connect, disconnect, log, resync, backfill };
}

export type CrmService = ReturnType<typeof createCrmService>;
