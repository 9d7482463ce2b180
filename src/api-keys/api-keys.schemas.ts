import { z } from 'zod';
import { SCOPES } from '../auth/permissions';
import { idSchema } from '../core/ids';
import { iso, timestamp } from '../core/time';
import type { ApiKeyRow } from './api-keys.repo';
import { text } from '../core/text';

export const scopesSchema = z
  .array(z.enum(SCOPES))
  .min(1, 'give at least one scope')
  .transform((s) => [...new Set(s)]);

export const createKeyBody = z
  .object({
    name: text().trim().min(1).max(100),
    scopes: scopesSchema,
    expires_at: timestamp.nullable().optional(),
  })
  .strict()
  .meta({
    examples: [
      { name: 'CI pipeline', scopes: ['demos:read', 'demos:write'] },
      { name: 'Analytics export', scopes: ['analytics:read'], expires_at: '2027-03-01T00:00:00.000Z' },
    ],
  });

export const toCreateKeyInput = (body: z.infer<typeof createKeyBody>) => ({
  name: body.name,
  scopes: body.scopes,
  expiresAt: body.expires_at ? new Date(body.expires_at) : null,
});

export const rotateKeyBody = z
  .object({
    grace_period_seconds: z
      .number()
      .int()
      .min(0)
      .max(30 * 86_400)
      .optional()
      .meta({ description: 'How long the old key keeps working. Default: KEY_ROTATION_GRACE (24 h).' }),
  })
  .strict()
  // A POST without a body arrives as null.
  .nullish()
  .meta({ examples: [{ grace_period_seconds: 3600 }, {}] });

export const keyParams = z.object({ id: idSchema('apiKey') });

const API_KEY_EXAMPLE = {
  id: 'key_01jd3m9r2s4t6v8w0x2y4z6a8b',
  name: 'CI pipeline',
  prefix: 'dsk_7Hq2',
  last_four: 'x9Qe',
  scopes: ['demos:read', 'demos:write'],
  member_id: 'mem_01jd3k6z1a4b7c0d3e6f9g2h5j',
  created_by: 'ada@example.com',
  created_at: '2026-11-21T11:00:00.000Z',
  expires_at: null,
  last_used_at: '2026-11-25T07:45:12.000Z',
  replaced_by: null,
};

export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().meta({ description: 'First characters of the key, to recognise it.' }),
    last_four: z.string(),
    scopes: z.array(z.enum(SCOPES)),
    member_id: z.string(),
    created_by: z.string().meta({ description: 'E-mail of the member who owns the key.' }).optional(),
    created_at: timestamp,
    expires_at: timestamp.nullable(),
    last_used_at: timestamp.nullable(),
    replaced_by: z.string().nullable(),
  })
  .meta({
    id: 'ApiKey',
    examples: [
      API_KEY_EXAMPLE,
    ],
  });

export const createdKeySchema = apiKeySchema
  .extend({ key: z.string().meta({ description: 'The key itself. Shown only in this response: store it now.' }) })
  .meta({
    id: 'CreatedApiKey',
    examples: [
      { ...API_KEY_EXAMPLE, last_used_at: null, key: 'dsk_7Hq2mV9pL4tR8sK1wN6yB3cF0gJ5hD2zX7aQ4eU8iOx2Kf3Tx9Qe' },
    ],
  });

export function toApiKey(row: ApiKeyRow, ownerEmail?: string) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    last_four: row.lastFour,
    scopes: row.scopes as (typeof SCOPES)[number][],
    member_id: row.memberId,
    created_by: ownerEmail,
    created_at: iso(row.createdAt),
    expires_at: iso(row.expiresAt),
    last_used_at: iso(row.lastUsedAt),
    replaced_by: row.replacedById,
  };
}
