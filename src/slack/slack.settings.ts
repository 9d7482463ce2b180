// Saving, reading, removing and trying a Slack destination (the workspace's or a member's own), and its message log.
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { seal, unseal } from '../core/crypto';
import { AppError, conflict, invalid, notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { SafeFetch } from '../core/net/safe-fetch';
import type { Database } from '../db/client';
import { testMessage } from './slack-blocks';
import { postToSlack } from './slack.sender';
import * as repo from './slack.repo';
import type { SlackAlert, SlackMessageStatus, SlackScope } from './slack.tables';

export interface SlackSettingsDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  net: SafeFetch;
  sealingKey: Buffer;
  timeoutMs: number;
  /** Attempts a message sent again from the log gets (the retry schedule's, plus the first). */
  attemptsPerRound: number;
}

/** Whose destination: the workspace's (`member` false, admins) or the caller's own. */
export interface Target {
  auth: AuthContext;
  member: boolean;
}

/** What PUT takes: a URL (required the first time; checked by a test message), the alerts, a member's scope. */
export interface SlackInput {
  url?: string;
  alerts: SlackAlert[];
  scope?: SlackScope;
}

const memberOf = (t: Target) => (t.member ? t.auth.memberId : null);
const label = (t: Target) => (t.member ? 'Your Slack alerts' : 'The workspace’s Slack alerts');

/** `hooks.slack.com/…/Ab3x`: enough to recognise the URL, nothing anyone could post with. */
export function urlHint(url: string): string {
  const u = new URL(url);
  return `${u.host}/…${url.replace(/\/+$/, '').slice(-4)}`;
}

/** A test message to `url`; a URL Slack does not take is a 422 on `url`, with Slack's answer. */
async function checkByTestMessage(deps: SlackSettingsDeps, url: string, workspace: string, who: string) {
  const checked = (await deps.net.check(url)).toString();
  const { verdict } = await postToSlack(deps.net, checked, JSON.stringify(testMessage(workspace, who)), deps.timeoutMs, () => deps.clock.now());
  if (verdict.kind !== 'sent') {
    throw new AppError('validation_error', `Slack did not take the test message: ${verdict.reason}. Nothing was saved.`, {
      details: [{ field: 'url', message: verdict.reason }],
    });
  }
  return checked;
}

export function createSlackSettings(deps: SlackSettingsDeps) {
  const { db } = deps.database;

  async function find(t: Target) {
    return repo.findDestination(db, t.auth.workspaceId, memberOf(t));
  }

  async function required(t: Target) {
    const row = await find(t);
    if (!row) throw notFound(label(t));
    return row;
  }

  /**
   * Saves the destination. A new URL is checked by the SSRF guard and by a test message Slack must take
   * (422 otherwise, nothing saved); it also turns a destination Slack had disabled back on.
   */
  async function save(t: Target, input: SlackInput, context: { workspace: string; who: string }, actor: Actor) {
    const current = await find(t);
    if (!input.url && !current) throw invalid('url is required: no Slack webhook URL is saved yet', [{ field: 'url', message: 'Required' }]);
    if (!t.member && input.scope === 'mine') throw invalid('scope `mine` is for a member’s own alerts', [{ field: 'scope', message: 'Only `all`' }]);
    const url = input.url ? await checkByTestMessage(deps, input.url, context.workspace, context.who) : undefined;
    const now = deps.clock.now();
    return db.transaction(async (tx) => {
      const fresh = url ? { urlSealed: seal(deps.sealingKey, url), urlHint: urlHint(url), disabledAt: null, disabledReason: null } : {};
      const change = { ...fresh, alerts: [...new Set(input.alerts)], scope: input.scope ?? current?.scope ?? 'all', updatedById: t.auth.memberId, updatedAt: now };
      const row = current
        ? (await repo.updateDestination(tx, current.id, change))!
        : await repo.insertDestination(tx, {
            id: newId('slackDestination'),
            workspaceId: t.auth.workspaceId,
            memberId: memberOf(t),
            urlSealed: fresh.urlSealed!,
            urlHint: fresh.urlHint!,
            ...change,
            createdAt: now,
          });
      if (!t.member) {
        await recordAudit(tx, deps.clock, actor, {
          workspaceId: t.auth.workspaceId,
          action: 'workspace.changed',
          target: { type: 'workspace', id: t.auth.workspaceId },
          changes: {
            ...(url ? { 'slack.url_hint': { from: current?.urlHint ?? null, to: row.urlHint } } : {}),
            'slack.alerts': { from: current?.alerts ?? null, to: row.alerts },
          },
        });
      }
      return row;
    });
  }

  /** Forgets the URL and the log. 204 also when nothing was saved. */
  async function remove(t: Target, actor: Actor) {
    await db.transaction(async (tx) => {
      const current = await repo.findDestination(tx, t.auth.workspaceId, memberOf(t));
      if (!current) return;
      await repo.deleteDestination(tx, current.id);
      if (!t.member) {
        await recordAudit(tx, deps.clock, actor, {
          workspaceId: t.auth.workspaceId,
          action: 'workspace.changed',
          target: { type: 'workspace', id: t.auth.workspaceId },
          changes: { 'slack.url_hint': { from: current.urlHint, to: null } },
        });
      }
    });
  }

  /** Sends a test message to the saved URL now. Slack taking it turns a disabled destination back on. */
  async function test(t: Target, context: { workspace: string; who: string }) {
    const row = await required(t);
    let url: string;
    try {
      url = unseal(deps.sealingKey, row.urlSealed);
    } catch {
      throw conflict('The saved URL cannot be read (the server’s SECRET_KEY changed since it was saved): save it again');
    }
    const { verdict, statusCode } = await postToSlack(deps.net, url, JSON.stringify(testMessage(context.workspace, context.who)), deps.timeoutMs, () =>
      deps.clock.now(),
    );
    const sent = verdict.kind === 'sent';
    if (sent && row.disabledAt) await repo.updateDestination(db, row.id, { disabledAt: null, disabledReason: null, updatedAt: deps.clock.now() });
    return { ok: sent, statusCode, error: sent ? null : verdict.reason };
  }

  async function messages(t: Target, status: SlackMessageStatus | undefined, range: { limit: number; offset: number }) {
    const row = await find(t);
    if (!row) return { rows: [], total: 0 };
    return repo.listMessages(db, row.id, status, range);
  }

  /** A failed or cancelled message queued again, with a fresh round of attempts. */
  async function resend(t: Target, messageId: string) {
    const row = await required(t);
    if (row.disabledAt) throw conflict('Slack disabled this URL: save a working one (or send a test message) first');
    const message = await repo.findMessage(db, row.id, messageId);
    if (!message) throw notFound('Slack message');
    const queued = await repo.requeueMessage(db, message.id, deps.attemptsPerRound, deps.clock.now());
    if (!queued) throw conflict(`The message is ${message.status}: only a failed or cancelled message is sent again`);
    return queued;
  }

  return { find, save, remove, test, messages, resend };
}

export type SlackSettings = ReturnType<typeof createSlackSettings>;
