// Request and response schemas of ai.routes.ts (the workspace's model, its connection test) and the row→JSON mapping.
import { z } from 'zod';
import { text } from '../core/text';
import { iso, timestamp } from '../core/time';
import type { AiSettingsRow } from './ai.repo';

const baseUrl = text()
  .trim()
  .min(1)
  .max(2000)
  .meta({
    description:
      'The address of an OpenAI-compatible API, up to the path before `/chat/completions` (for OpenAI ' +
      '`https://api.openai.com/v1`; for a model on your own network, such as Ollama or vLLM, its `/v1` address). ' +
      'http or https, no credentials in it. A private or loopback address is refused unless the operator opened ' +
      'it with ALLOW_PRIVATE_NETWORK_CIDRS.',
    examples: ['https://api.openai.com/v1'],
  });
const model = text()
  .trim()
  .min(1)
  .max(200)
  .meta({ description: 'The model name the API expects, as its documentation writes it.', examples: ['gpt-4o-mini'] });
const key = text()
  .trim()
  .min(1)
  .max(1000)
  .meta({
    description:
      'The API key, sent as `Authorization: Bearer <key>`. Write-only: stored encrypted and never returned (only its ' +
      'last four characters are). Required when the workspace has none yet and whenever `base_url` changes host, so a ' +
      'saved key is never sent to a new address; left out otherwise, the saved key stays.',
  });

/** PUT /v1/workspace/ai */
export const putAiSettingsBody = z
  .object({ base_url: baseUrl, model, key: key.optional() })
  .strict()
  .meta({
    description: 'The workspace’s model: where it answers, its name, and the key to call it with.',
    examples: [{ base_url: 'https://api.openai.com/v1', model: 'gpt-4o-mini', key: 'sk-proj-...' }, { base_url: 'https://api.openai.com/v1', model: 'gpt-4o' }],
  });

/** POST /v1/workspace/ai/test: every field optional, the saved settings fill in what is left out. */
export const testAiBody = z
  .object({ base_url: baseUrl.optional(), model: model.optional(), key: key.optional() })
  .strict()
  // No body at all arrives as null.
  .nullish()
  .meta({
    description:
      'Settings to try before saving them (the form as it is). Fields left out come from the saved settings; with no ' +
      'body at all, the model generation would use now is tried (the workspace’s, else the instance’s).',
    examples: [{ base_url: 'http://ollama.internal:11434/v1', model: 'llama3.1', key: 'ollama' }, { key: 'sk-proj-...' }, {}],
  });

export type AiSettingsInput = z.infer<typeof putAiSettingsBody>;
export type AiTestInput = NonNullable<z.infer<typeof testAiBody>>;

export const aiSettingsSchema = z
  .object({
    source: z.enum(['workspace', 'instance', 'none']).meta({
      description:
        'Which model generation and the editor’s Rewrite use: `workspace` (the settings below), `instance` (the ' +
        'operator’s AI_BASE_URL / AI_MODEL, while the workspace sets none) or `none` (the built-in writer only; ' +
        'Rewrite is unavailable).',
    }),
    base_url: z.string().nullable().meta({ description: 'The workspace’s API address; null when it sets none.' }),
    model: z.string().nullable().meta({ description: 'The workspace’s model name; null when it sets none.' }),
    key_set: z.boolean().meta({ description: 'Whether the workspace has a key stored. The key itself is never returned.' }),
    key_last4: z.string().nullable().meta({ description: 'The stored key’s last four characters, to tell keys apart; null without one.' }),
    updated_at: timestamp.nullable().meta({ description: 'When the workspace’s settings were last saved; null when it sets none.' }),
    instance: z
      .object({ base_url: z.string(), model: z.string() })
      .nullable()
      .meta({ description: 'The operator’s model (AI_* variables), used when the workspace sets none; null when there is none.' }),
  })
  .meta({
    id: 'AiSettings',
    examples: [
      {
        source: 'workspace',
        base_url: 'https://api.openai.com/v1',
        model: 'gpt-4o-mini',
        key_set: true,
        key_last4: 'x9Qa',
        updated_at: '2026-11-28T10:00:00.000Z',
        instance: null,
      },
    ],
  });

export const aiTestResultSchema = z
  .object({
    ok: z.boolean().meta({ description: 'Whether the model answered a short prompt as a chat completion should.' }),
    model: z.string().nullable().meta({ description: 'The model that answered, as the API names it (else the one asked for); null when it did not answer.' }),
    latency_ms: z.number().int().nullable().meta({ description: 'How long the answer took, in milliseconds; null when there was none.' }),
    error: z.string().nullable().meta({
      description:
        'What went wrong, in words, and what to check: the key refused (with the API’s own message), the address ' +
        'unreachable or refused (with the setting an operator can change), no answer in time, an answer that is not a ' +
        'chat completion. Null when `ok`.',
    }),
  })
  .meta({
    id: 'AiTestResult',
    examples: [
      { ok: true, model: 'gpt-4o-mini-2024-07-18', latency_ms: 412, error: null },
      { ok: false, model: null, latency_ms: null, error: 'the API refused the key (HTTP 401: “Incorrect API key provided”): check the key, or make a new one' },
    ],
  });

/** What GET answers: the workspace's row (never its key) beside the instance's model. */
export function toAiSettings(row: AiSettingsRow | undefined, instance: { baseUrl: string; model: string } | null): z.infer<typeof aiSettingsSchema> {
  return {
    source: row ? 'workspace' : instance ? 'instance' : 'none',
    base_url: row?.baseUrl ?? null,
    model: row?.model ?? null,
    key_set: Boolean(row),
    key_last4: row?.keyLast4 ?? null,
    updated_at: row ? iso(row.updatedAt) : null,
    instance: instance ? { base_url: instance.baseUrl, model: instance.model } : null,
  };
}
