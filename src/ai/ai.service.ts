// The workspace's model (Settings → AI): saved with its key sealed, tried with a short prompt, and resolved for generation and Rewrite.
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import type { Config } from '../config';
import type { Clock } from '../core/clock';
import { seal, unseal } from '../core/crypto';
import { type AppError, conflict, invalid } from '../core/errors';
import { BlockedUrlError, type SafeFetch } from '../core/net/safe-fetch';
import type { Database } from '../db/client';
import { type AiSettings, AiWriterError, chatCompletion } from '../generation/ai-chat';
import * as repo from './ai.repo';
import { type AiSettingsInput, type AiTestInput, toAiSettings } from './ai.schemas';

/** What the service is built from: the kernel's database, clock, SSRF-safe client, sealing key and config. */
export interface AiSettingsDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  net: SafeFetch;
  secrets: { sealing: Buffer };
  config: Pick<Config, 'AI_BASE_URL' | 'AI_API_KEY' | 'AI_MODEL' | 'AI_TIMEOUT'>;
  log?: { warn(details: object, message: string): void };
}

/**
 * The model a workspace writes with: its own (Settings → AI) when it saved one, else the instance's
 * (AI_* variables), else null (the built-in writer). What generation and the editor's Rewrite ask.
 */
export type AiSettingsFor = (workspaceId: string) => Promise<AiSettings | null>;

const TEST_TIMEOUT_MS = 20_000;
const PRIVATE_HINT = 'An operator can allow private addresses with ALLOW_PRIVATE_NETWORK_CIDRS (for a model on this machine, 127.0.0.1/32).';

/**
 * A workspace's AI settings: read (never the key), saved (the key sealed under the server's sealing key,
 * the address checked by the SSRF guard, an audit entry), removed, tried, and resolved for the writers.
 *
 * @example
 * const ai = createAiSettingsService(kernel);
 * await ai.save(auth, { base_url: 'https://api.openai.com/v1', model: 'gpt-4o-mini', key: 'sk-...' }, actor);
 * const settings = await ai.settingsFor(auth.workspaceId); // { baseUrl, apiKey, model, net } — generation's
 */
export function createAiSettingsService(deps: AiSettingsDeps) {
  const { db } = deps.database;
  const { config } = deps;
  const instance =
    config.AI_BASE_URL && config.AI_API_KEY && config.AI_MODEL
      ? { baseUrl: config.AI_BASE_URL, apiKey: config.AI_API_KEY, model: config.AI_MODEL, timeoutMs: config.AI_TIMEOUT }
      : null;
  const instanceView = instance ? { baseUrl: instance.baseUrl, model: instance.model } : null;

  async function get(workspaceId: string) {
    return toAiSettings(await repo.findSettings(db, workspaceId), instanceView);
  }

  async function save(auth: AuthContext, input: AiSettingsInput, actor: Actor) {
    const baseUrl = await checkedBaseUrl(input.base_url);
    const row = await db.transaction(async (tx) => {
      const current = await repo.lockSettings(tx, auth.workspaceId);
      if (!input.key && !current) throw invalid('key is required: the workspace has no API key yet', [{ field: 'key', message: 'Required' }]);
      if (!input.key && current && !sameHost(current.baseUrl, baseUrl)) throw keyForNewHost();
      const now = deps.clock.now();
      const saved = await repo.saveSettings(tx, {
        workspaceId: auth.workspaceId,
        baseUrl,
        model: input.model,
        keySealed: input.key ? seal(deps.secrets.sealing, input.key) : current!.keySealed,
        keyLast4: input.key ? input.key.slice(-4) : current!.keyLast4,
        updatedById: auth.userId,
        createdAt: now,
        updatedAt: now,
      });
      const changes: Record<string, unknown> = {};
      if (current?.baseUrl !== saved.baseUrl) changes['ai.base_url'] = { from: current?.baseUrl ?? null, to: saved.baseUrl };
      if (current?.model !== saved.model) changes['ai.model'] = { from: current?.model ?? null, to: saved.model };
      if (input.key) changes['ai.key_last4'] = { from: current?.keyLast4 ?? null, to: saved.keyLast4 };
      await recordAudit(tx, deps.clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'workspace.changed',
        target: { type: 'workspace', id: auth.workspaceId },
        changes,
      });
      return saved;
    });
    return toAiSettings(row, instanceView);
  }

  async function remove(auth: AuthContext, actor: Actor): Promise<void> {
    await db.transaction(async (tx) => {
      const current = await repo.lockSettings(tx, auth.workspaceId);
      if (!current || !(await repo.deleteSettings(tx, auth.workspaceId))) return;
      await recordAudit(tx, deps.clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'workspace.changed',
        target: { type: 'workspace', id: auth.workspaceId },
        changes: { 'ai.base_url': { from: current.baseUrl, to: null }, 'ai.model': { from: current.model, to: null }, 'ai.key_last4': { from: current.keyLast4, to: null } },
      });
    });
  }

  /** Asks the model for one word. A model that fails is an answer (`ok: false` in words), not an error. */
  async function test(auth: AuthContext, input: AiTestInput) {
    const settings = await settingsToTest(auth.workspaceId, input ?? {});
    const started = performance.now();
    try {
      const reply = await chatCompletion(
        settings,
        { messages: [{ role: 'user', content: 'This is a connection test. Answer with the single word: ok' }], temperature: 0 },
        Math.min(settings.timeoutMs ?? TEST_TIMEOUT_MS, TEST_TIMEOUT_MS),
      );
      return { ok: true, model: reply.model ?? settings.model, latency_ms: Math.round(performance.now() - started), error: null };
    } catch (error) {
      if (!(error instanceof AiWriterError)) throw error;
      return { ok: false, model: null, latency_ms: null, error: capitalise(error.message) };
    }
  }

  async function settingsToTest(workspaceId: string, input: AiTestInput): Promise<AiSettings> {
    if (!input.base_url && !input.model && !input.key) {
      const effective = await settingsFor(workspaceId);
      if (!effective) throw notSetUp();
      return effective;
    }
    const saved = await repo.findSettings(db, workspaceId);
    const baseUrl = input.base_url ? await checkedBaseUrl(input.base_url) : saved?.baseUrl;
    const model = input.model ?? saved?.model;
    if (!baseUrl) throw invalid('base_url is required: the workspace has none saved', [{ field: 'base_url', message: 'Required' }]);
    if (!model) throw invalid('model is required: the workspace has none saved', [{ field: 'model', message: 'Required' }]);
    if (!input.key && !saved) throw invalid('key is required: the workspace has no API key saved', [{ field: 'key', message: 'Required' }]);
    if (!input.key && saved && !sameHost(saved.baseUrl, baseUrl)) throw keyForNewHost();
    const apiKey = input.key ?? unsealKey(saved!);
    if (apiKey === null) throw conflict('The saved key cannot be read (the server’s SECRET_KEY changed since it was saved): enter the key again');
    return { baseUrl, model, apiKey, timeoutMs: config.AI_TIMEOUT, net: deps.net };
  }

  const settingsFor: AiSettingsFor = async (workspaceId) => {
    const row = await repo.findSettings(db, workspaceId);
    if (!row) return instance;
    const apiKey = unsealKey(row);
    // A key sealed under an older SECRET_KEY: the workspace's model cannot be called, and the operator's
    // (someone else's account) is not silently used instead; the built-in writer writes.
    if (apiKey === null) return null;
    return { baseUrl: row.baseUrl, model: row.model, apiKey, timeoutMs: config.AI_TIMEOUT, net: deps.net };
  };

  function unsealKey(row: repo.AiSettingsRow): string | null {
    try {
      return unseal(deps.secrets.sealing, row.keySealed);
    } catch (error) {
      deps.log?.warn({ err: error, workspace_id: row.workspaceId }, 'ai: the workspace’s API key cannot be unsealed (SECRET_KEY changed?)');
      return null;
    }
  }

  /** The address without a trailing slash, refused (400, on `base_url`) when the SSRF guard would refuse it. */
  async function checkedBaseUrl(raw: string): Promise<string> {
    try {
      await deps.net.check(raw);
    } catch (error) {
      if (!(error instanceof BlockedUrlError)) throw error;
      const reason = error.details?.[0]?.message ?? error.message;
      const hint = /address|resolves to/.test(reason) && !/does not resolve/.test(reason) ? ` ${PRIVATE_HINT}` : '';
      throw invalid(`${error.message}.${hint}`, [{ field: 'base_url', message: reason }]);
    }
    return raw.replace(/\/+$/, '');
  }

  return { get, save, remove, test, settingsFor };
}

export type AiSettingsService = ReturnType<typeof createAiSettingsService>;

/**
 * The 409 of a feature that needs a model when none is set up, saying where to set one up.
 *
 * @example throw notSetUp(); // 409 conflict: 'No AI model is set up for this workspace: ...'
 */
export function notSetUp(): AppError {
  return conflict(
    'No AI model is set up for this workspace: an admin can add one in Settings → AI (PUT /v1/workspace/ai), or the ' +
      'operator can set AI_BASE_URL, AI_API_KEY and AI_MODEL for the whole instance',
  );
}

function keyForNewHost(): AppError {
  return invalid('key is required when base_url moves to another host: the saved key is never sent to a new address', [
    { field: 'key', message: 'Required when base_url changes host' },
  ]);
}

function sameHost(a: string, b: string): boolean {
  try {
    const [x, y] = [new URL(a), new URL(b)];
    return x.protocol === y.protocol && x.host === y.host;
  } catch {
    return false;
  }
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
