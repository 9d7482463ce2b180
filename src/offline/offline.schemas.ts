// The offline bundle's query, its beacon's body and answer, and the headers its download carries.
import { z } from 'zod';
import { idSchema } from '../core/ids';
import { text } from '../core/text';
import { OFFLINE_MAX_BYTES } from './offline.service';

export const offlineQuery = z
  .object({
    beacon: z
      .enum(['true', 'false', 'ask'])
      .optional()
      .transform((v) => (v === 'true' ? ('always' as const) : v === 'ask' ? ('ask' as const) : null))
      .meta({
        description:
          'true: the file sends its viewing events to this instance when it is online (best effort), through a share link of the ' +
          'demo (`share_id`, else its oldest open link). The link’s token is written into the file. `ask`: the same, once the ' +
          'person viewing the file has allowed it in a bar the file shows (ePrivacy, GDPR: until then it sends nothing and stores ' +
          'nothing; a refusal is remembered on that device). Default false: the file makes no request at all.',
      }),
    share_id: idSchema('share')
      .optional()
      .meta({
        description:
          'With beacon=true: the link whose views the file’s events count as. It must be a link of this demo, active, without a ' +
          'password or identification (an offline file cannot pass them).',
      }),
  })
  .strict();

/** The headers of the file's answer, for the OpenAPI document. */
export const offlineHeaders = {
  'X-Bundle-Size': {
    description: 'The file’s size in bytes (as Content-Length): HEAD tells it before a download.',
    schema: { type: 'integer', example: 1843211 },
  },
  'X-Demo-Version': { description: 'The published version the file plays.', schema: { type: 'integer', example: 3 } },
  'Content-Disposition': {
    description: 'attachment; filename="<title>-v<version>-offline.html"',
    schema: { type: 'string', example: 'attachment; filename="acme-analytics-tour-v3-offline.html"' },
  },
} as const;

export const offlineFileResponse = {
  description:
    `One self-contained HTML file (docs/offline.md): the player, the demo, its pictures and snapshots inline; at most ${OFFLINE_MAX_BYTES / 1024 / 1024} MB.`,
  headers: offlineHeaders,
  content: {
    'text/html': {
      schema: z
        .custom<Buffer>((v) => Buffer.isBuffer(v))
        .meta({ type: 'string', example: '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">…<script id="demoshare-offline" type="application/json">{…}</script>…' }),
    },
  },
};

/** What an offline file's beacon posts (as text/plain, so that a page on file:// or any host sends it without a preflight). */
export const offlineEventsBody = z
  .object({
    session_token: text()
      .max(200)
      .optional()
      .meta({ description: 'The session this endpoint answered before; absent on the first batch (a new session and view start).' }),
    events: z
      .array(z.record(z.string(), z.unknown()))
      .min(1)
      .max(100)
      .meta({ description: 'Events exactly as POST /v1/viewer/:token/events takes them (checked the same way).' }),
  })
  .strict()
  .meta({
    examples: [{ events: [{ id: '3f1c2b9e-7a4d-4e8b-9c1a-5d6e7f8a9b0c', type: 'view_started', at: '2026-11-24T15:42:10.000Z' }] }],
  });

export const offlineEventsAnswer = z
  .object({
    session_token: z.string().meta({ description: 'Send it with the next batches: they count in the same view.' }),
    accepted: z.number().int().meta({ description: 'Events stored by this request.' }),
    duplicates: z.number().int().meta({ description: 'Events already stored before (same id): ignored.' }),
  })
  .meta({ examples: [{ session_token: 'vs_3q9…', accepted: 1, duplicates: 0 }] });
