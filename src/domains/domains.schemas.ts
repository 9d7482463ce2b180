import { isIP } from 'node:net';
import { z } from 'zod';
import { idSchema } from '../core/ids';
import { httpUrl, text } from '../core/text';
import { iso, timestamp } from '../core/time';
import { txtName, txtValue } from './domain-dns';
import type { DomainView } from './domain-primary';
import { DOMAIN_STATUSES, VERIFICATION_METHODS } from './domains.tables';

export const addDomainBody = z
  .object({
    hostname: text().min(1).max(300).meta({
      description:
        'The host name viewers will open, such as `demos.example.com`. Case, a trailing dot and Unicode (stored as punycode) ' +
        'are normalised; a URL, a port, a wildcard, an IP address, localhost and the instance’s own host name (or a name ' +
        'under it) are refused with 400.',
      example: 'demos.example.com',
    }),
  })
  .strict()
  .meta({ examples: [{ hostname: 'demos.example.com' }] });

export const ROOT_URL_TEXT =
  'Where the domain’s own root (`https://<hostname>/`, what a visitor who types the domain opens) sends them, with a 302: ' +
  'your demo hub’s address on this domain, your website, any http or https address. Null: a “Nothing here” page (404).';

export const PRIMARY_TEXT =
  'Whether the workspace’s links use this domain: share links’ `url` and `embed_url`, demos’ `share_url`, hub addresses and ' +
  'the viewer pages’ `og:url`. Exactly one verified domain of a workspace is primary when it has any: the one an admin chose ' +
  '(`PATCH` with `primary: true`), else the oldest verified. The others keep serving the links opened on them.';

export const updateDomainBody = z
  .object({
    root_url: httpUrl.nullable().optional().meta({ description: `${ROOT_URL_TEXT} Left out: unchanged.` }),
    primary: z
      .literal(true, {
        error:
          'can only be true: to stop links using this domain, make another verified domain the one they use (or remove this one)',
      })
      .optional()
      .meta({
        description:
          '`true`: the workspace’s links use this domain from now on, instead of the one they used; the other domains keep serving ' +
          'the links opened on them. Only a verified domain (409 otherwise). `false` is refused (400): choose the domain links ' +
          'should use instead. Left out: unchanged.',
      }),
  })
  .strict()
  .refine((body) => body.root_url !== undefined || body.primary !== undefined, {
    error: 'is empty: give root_url, primary or both',
  })
  .meta({
    examples: [
      { root_url: 'https://demos.example.com/h/Q2m8W4k1v9ZpL0s7a3Xr5t6Yb2Nc8Hd1Jk3Lm5No7Pq' },
      { root_url: null },
      { primary: true },
    ],
  });

export const domainParams = z.object({ id: idSchema('domain') });

const recordSchema = z
  .object({
    type: z.enum(['TXT', 'CNAME']),
    name: z.string().meta({ description: 'The record’s full name.' }),
    value: z.string().meta({ description: 'What it must hold (TXT) or point at (CNAME).' }),
    purpose: z.string().meta({ description: 'What the record is for, in words for the admin.' }),
  })
  .meta({ id: 'DomainRecord' });

const DOMAIN_EXAMPLE = {
  id: 'dom_01jd3n4p6q8r0s2t4v6w8x0y2z',
  hostname: 'demos.example.com',
  url: 'https://demos.example.com',
  status: 'verified',
  verified_by: 'txt',
  verified_at: '2026-11-21T10:25:00.000Z',
  last_checked_at: '2026-11-24T04:00:00.000Z',
  last_error: null,
  failing_since: null,
  root_url: 'https://demos.example.com/h/Q2m8W4k1v9ZpL0s7a3Xr5t6Yb2Nc8Hd1Jk3Lm5No7Pq',
  primary: true,
  records: [
    {
      type: 'TXT',
      name: '_demoshare.demos.example.com',
      value: 'demoshare-verification=Q2m8W4k1v9ZpL0s7a3Xr5t6Yb2Nc8Hd1',
      purpose: 'Proves that this workspace controls the domain.',
    },
    { type: 'CNAME', name: 'demos.example.com', value: 'app.demoshare.example', purpose: 'Sends the domain’s visitors to this instance.' },
  ],
  created_at: '2026-11-21T10:20:00.000Z',
};

export const domainSchema = z
  .object({
    id: z.string(),
    hostname: z.string().meta({ description: 'Lower-case ASCII (punycode for an internationalised name), without a trailing dot.' }),
    url: z.string().meta({
      description: 'The domain’s origin: share links, hubs and embeds answer there once it is verified, and use it while it is `primary`.',
    }),
    status: z.enum(DOMAIN_STATUSES).meta({
      description:
        '`pending`: not verified yet (create the records, then verify); `verified`: served (and links use it if it is `primary`); `failed`: its records ' +
        'were missing at every re-check for DOMAIN_RECHECK_GRACE, so it is no longer served: fix the records and verify again.',
    }),
    verified_by: z.enum(VERIFICATION_METHODS).nullable().meta({ description: 'Which record verified it: `txt` or `cname`.' }),
    verified_at: timestamp.nullable(),
    last_checked_at: timestamp.nullable().meta({ description: 'The last verification or scheduled re-check.' }),
    last_error: z.string().nullable().meta({ description: 'What the last check found instead of a verifying record; null after a passing one.' }),
    failing_since: timestamp.nullable().meta({ description: 'A verified domain: the first failed re-check since the last passing one.' }),
    root_url: z.string().nullable().meta({ description: ROOT_URL_TEXT }),
    primary: z.boolean().meta({ description: PRIMARY_TEXT }),
    records: z.array(recordSchema).meta({
      description:
        'The DNS records to create: the TXT record (either it or the CNAME verifies; only the TXT proves which workspace owns the ' +
        'name when several claim it) and the CNAME that sends visitors here (an apex domain uses its provider’s ALIAS/ANAME or A records instead).',
    }),
    created_at: timestamp,
  })
  .meta({ id: 'Domain', examples: [DOMAIN_EXAMPLE] });

/** A row as the API answers it, with the records to create. */
export function toDomain(row: DomainView, cnameTarget: string, scheme: string): z.infer<typeof domainSchema> {
  return {
    id: row.id,
    hostname: row.hostname,
    url: `${scheme}://${row.hostname}`,
    status: row.status,
    verified_by: row.verifiedBy,
    verified_at: row.verifiedAt ? iso(row.verifiedAt) : null,
    last_checked_at: row.lastCheckedAt ? iso(row.lastCheckedAt) : null,
    last_error: row.lastError,
    failing_since: row.failingSince ? iso(row.failingSince) : null,
    root_url: row.rootUrl,
    primary: row.primary,
    records: [
      { type: 'TXT', name: txtName(row.hostname), value: txtValue(row.verificationToken), purpose: 'Proves that this workspace controls the domain.' },
      // A CNAME names a host: an instance reached by an IP address (development) has none to offer.
      ...(isIP(cnameTarget)
        ? []
        : [{ type: 'CNAME' as const, name: row.hostname, value: cnameTarget, purpose: 'Sends the domain’s visitors to this instance.' }]),
    ],
    created_at: iso(row.createdAt),
  };
}

export const tlsAskQuery = z.object({ domain: z.string().max(300).default('') });
