// The hubs API's wire shapes (snake_case) and the row → JSON mapping of hubs, collections and entries.
import { z } from 'zod';
import { idSchema } from '../core/ids';
import type { ShareUrls } from '../core/share-urls';
import { httpUrl, text, withoutNul } from '../core/text';
import { iso, timestamp } from '../core/time';
import type { HubCollectionRow, HubEntryListing, HubRow } from './hubs.repo';
import { HUB_LEAD_FIELDS } from './hubs.tables';

export const hubParams = z.object({ id: idSchema('hub') });
export const collectionParams = z.object({ id: idSchema('hub'), collection_id: idSchema('hubCollection') });
export const entryParams = z.object({ id: idSchema('hub'), entry_id: idSchema('hubEntry') });

const email = withoutNul(z.email())
  .max(254)
  .transform((v) => v.toLowerCase());
const domain = text()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/, 'must be a domain such as example.com');

const hubFields = {
  name: text().trim().min(1).max(100).meta({ description: 'The workspace’s own name for the hub (lists, the editor).' }),
  title: text().trim().min(1).max(120).meta({ description: 'The hero title viewers see. Defaults to `name`.' }),
  intro: text().max(600).meta({ description: 'A short text under the title (plain text).' }),
  cta_label: text().trim().min(1).max(40).nullable().meta({ description: 'A button in the hub’s header, e.g. "Book a demo". Null: none.' }),
  cta_url: httpUrl.nullable().meta({ description: 'Where the header button leads (http or https). Needed with `cta_label`.' }),
  password: text().min(1).max(200).meta({ description: 'Viewers must enter it. Stored as an argon2id hash, never returned.' }),
  expires_at: timestamp.nullable().meta({ description: 'After this instant the hub and its demos answer 410. Null: never.' }),
  require_identification: z.boolean().meta({ description: 'Viewers give a name and an e-mail address first.' }),
  lead_fields: z
    .array(z.enum(HUB_LEAD_FIELDS))
    .max(HUB_LEAD_FIELDS.length)
    .meta({
      description:
        'Makes the gate a lead form: name, e-mail and these fields (required). Implies identification. Answers are in the hub’s analytics (`recent_visitors`).',
    }),
  allowed_emails: z.array(email).max(500).meta({ description: 'Only these addresses may identify. Empty: anyone.' }),
  allowed_domains: z.array(domain).max(100).meta({ description: 'Addresses at these domains may identify too (exact domain).' }),
};

export const createHubBody = z
  .object({ ...hubFields, title: hubFields.title.optional(), intro: hubFields.intro.optional() })
  .partial({
    cta_label: true,
    cta_url: true,
    password: true,
    expires_at: true,
    require_identification: true,
    lead_fields: true,
    allowed_emails: true,
    allowed_domains: true,
  })
  .strict()
  .meta({ examples: [{ name: 'Website demo center', title: 'See Acme in action', intro: 'Short interactive tours.', require_identification: true, lead_fields: ['company'] }] });

export const patchHubBody = z
  .object({ ...hubFields, password: hubFields.password.nullable().meta({ description: 'A new password; null removes it.' }) })
  .partial()
  .strict()
  .meta({ examples: [{ password: 'harbour-lights', allowed_domains: ['acme.com'] }] });

export type CreateHubBody = z.infer<typeof createHubBody>;
export type PatchHubBody = z.infer<typeof patchHubBody>;

/** What the service takes: the body's fields in camelCase, only those sent. */
export interface HubInput {
  name?: string;
  title?: string;
  intro?: string;
  ctaLabel?: string | null;
  ctaUrl?: string | null;
  password?: string | null;
  expiresAt?: string | null;
  requireIdentification?: boolean;
  leadFields?: (typeof HUB_LEAD_FIELDS)[number][];
  allowedEmails?: string[];
  allowedDomains?: string[];
}

export const toHubInput = (body: CreateHubBody | PatchHubBody): HubInput => ({
  name: body.name,
  title: body.title,
  intro: body.intro,
  ctaLabel: body.cta_label,
  ctaUrl: body.cta_url,
  password: body.password,
  expiresAt: body.expires_at,
  requireIdentification: body.require_identification,
  leadFields: body.lead_fields,
  allowedEmails: body.allowed_emails,
  allowedDomains: body.allowed_domains,
});

export const createCollectionBody = z
  .object({
    name: text().trim().min(1).max(60).meta({ description: 'Shown as a tab and a section title.' }),
    position: z.number().int().min(0).max(1000).optional().meta({ description: '0 is first. Left out: last.' }),
  })
  .strict()
  .meta({ examples: [{ name: 'Getting started' }] });
export const patchCollectionBody = createCollectionBody.partial().strict().meta({ examples: [{ position: 0 }] });

export const createEntryBody = z
  .object({
    demo_id: idSchema('demo'),
    collection_id: idSchema('hubCollection'),
    title: text().trim().min(1).max(120).nullable().optional().meta({ description: 'Null or left out: the demo’s title.' }),
    description: text().max(300).optional().meta({ description: 'The card’s short text (plain text).' }),
    position: z.number().int().min(0).max(1000).optional().meta({ description: '0 is first in its collection. Left out: last.' }),
  })
  .strict()
  .meta({
    examples: [
      {
        demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w',
        collection_id: 'hcol_01jd3m2k8p4q6r8s0t2v4w6x8y',
        description: 'From a customer to a sent invoice in six clicks.',
      },
    ],
  });
export const patchEntryBody = createEntryBody
  .omit({ demo_id: true })
  .partial()
  .strict()
  .meta({ examples: [{ description: 'Six clicks, one invoice.', position: 0 }] });

export const COVER_MAX_BYTES = 1024 * 1024;

const entrySchema = z
  .object({
    id: z.string(),
    collection_id: z.string(),
    demo_id: z.string(),
    share_id: z.string().meta({ description: 'The link the hub made for this entry (it carries the hub’s gates).' }),
    title: z.string().nullable().meta({ description: 'The card’s own title; null: the demo’s.' }),
    demo_title: z.string(),
    description: z.string(),
    position: z.number().int(),
    has_cover: z.boolean().meta({ description: 'An uploaded cover; without one the card shows the demo’s first screen (hubs without a password) or the brand colour.' }),
    available: z.boolean().meta({ description: 'Whether viewers see it: the demo is published and its link stands.' }),
  })
  .meta({ id: 'HubEntry', examples: [{
        id: 'hent_01jd3m2k8p4q6r8s0t2v4w6x8y',
        collection_id: 'hcol_01jd3m2k8p4q6r8s0t2v4w6x8y',
        demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w',
        share_id: 'shr_01jd3m2k8p4q6r8s0t2v4w6x8z',
        title: null,
        demo_title: 'Create your first invoice',
        description: 'From a customer to a sent invoice in six clicks.',
        position: 0,
        has_cover: true,
        available: true,
      }] });

const collectionSchema = z
  .object({ id: z.string(), name: z.string(), position: z.number().int(), entries: z.array(entrySchema) })
  .meta({ id: 'HubCollection', examples: [{ id: 'hcol_01jd3m2k8p4q6r8s0t2v4w6x8y', name: 'Getting started', position: 0, entries: [{
        id: 'hent_01jd3m2k8p4q6r8s0t2v4w6x8y',
        collection_id: 'hcol_01jd3m2k8p4q6r8s0t2v4w6x8y',
        demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w',
        share_id: 'shr_01jd3m2k8p4q6r8s0t2v4w6x8z',
        title: null,
        demo_title: 'Create your first invoice',
        description: 'From a customer to a sent invoice in six clicks.',
        position: 0,
        has_cover: true,
        available: true,
      }] }] });

export const hubSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    title: z.string(),
    intro: z.string(),
    cta_label: z.string().nullable(),
    cta_url: z.string().nullable(),
    url: z.string().meta({ description: '{APP_URL}/h/<token>: the hub’s page, on the workspace’s verified custom domain when it has one.' }),
    embed_url: z.string().meta({ description: '{APP_URL}/embed/h/<token>: the same hub for an iframe (on the custom domain likewise).' }),
    has_password: z.boolean(),
    expires_at: timestamp.nullable(),
    require_identification: z.boolean(),
    lead_fields: z.array(z.enum(HUB_LEAD_FIELDS)),
    allowed_emails: z.array(z.string()),
    allowed_domains: z.array(z.string()),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Hub', examples: [{
        id: 'hub_01jd3m2k8p4q6r8s0t2v4w6x8y',
        name: 'Website demo center',
        title: 'See Acme in action',
        intro: 'Short interactive tours: click through at your own pace.',
        cta_label: 'Book a demo',
        cta_url: 'https://acme.example/book',
        url: 'https://demos.example.com/h/Jx4f0qN2s8dW7kLp1vYb3cR6tZ9mH5gAaBcDeFgHiJk',
        embed_url: 'https://demos.example.com/embed/h/Jx4f0qN2s8dW7kLp1vYb3cR6tZ9mH5gAaBcDeFgHiJk',
        has_password: false,
        expires_at: null,
        require_identification: true,
        lead_fields: ['company'],
        allowed_emails: [],
        allowed_domains: [],
        created_at: '2026-11-21T10:10:00.000Z',
        updated_at: '2026-11-21T10:10:00.000Z',
      }] });

export const hubDetailSchema = hubSchema
  .extend({ collections: z.array(collectionSchema).meta({ description: 'In order, each with its entries in order.' }) })
  .meta({
    id: 'HubDetail',
    examples: [{ ...{
        id: 'hub_01jd3m2k8p4q6r8s0t2v4w6x8y',
        name: 'Website demo center',
        title: 'See Acme in action',
        intro: 'Short interactive tours: click through at your own pace.',
        cta_label: 'Book a demo',
        cta_url: 'https://acme.example/book',
        url: 'https://demos.example.com/h/Jx4f0qN2s8dW7kLp1vYb3cR6tZ9mH5gAaBcDeFgHiJk',
        embed_url: 'https://demos.example.com/embed/h/Jx4f0qN2s8dW7kLp1vYb3cR6tZ9mH5gAaBcDeFgHiJk',
        has_password: false,
        expires_at: null,
        require_identification: true,
        lead_fields: ['company'],
        allowed_emails: [],
        allowed_domains: [],
        created_at: '2026-11-21T10:10:00.000Z',
        updated_at: '2026-11-21T10:10:00.000Z',
      }, collections: [{ id: 'hcol_01jd3m2k8p4q6r8s0t2v4w6x8y', name: 'Getting started', position: 0, entries: [{
        id: 'hent_01jd3m2k8p4q6r8s0t2v4w6x8y',
        collection_id: 'hcol_01jd3m2k8p4q6r8s0t2v4w6x8y',
        demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w',
        share_id: 'shr_01jd3m2k8p4q6r8s0t2v4w6x8z',
        title: null,
        demo_title: 'Create your first invoice',
        description: 'From a customer to a sent invoice in six clicks.',
        position: 0,
        has_cover: true,
        available: true,
      }] }] }],
  });

export const collectionOutSchema = collectionSchema
  .omit({ entries: true })
  .meta({ id: 'HubCollectionSummary', examples: [{ id: 'hcol_01jd3m2k8p4q6r8s0t2v4w6x8y', name: 'Getting started', position: 0 }] });
export { entrySchema };

export function toHub(row: HubRow, urls: ShareUrls) {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    intro: row.intro,
    cta_label: row.ctaLabel,
    cta_url: row.ctaUrl,
    url: urls.hub(row.token),
    embed_url: urls.hubEmbed(row.token),
    has_password: row.passwordHash !== null,
    expires_at: iso(row.expiresAt),
    require_identification: row.requireIdentification,
    lead_fields: row.leadFields as (typeof HUB_LEAD_FIELDS)[number][],
    allowed_emails: row.allowedEmails,
    allowed_domains: row.allowedDomains,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export const toCollectionOut = (row: HubCollectionRow) => ({ id: row.id, name: row.name, position: row.position });

export function toEntry(listing: HubEntryListing) {
  const { entry } = listing;
  return {
    id: entry.id,
    collection_id: entry.collectionId,
    demo_id: entry.demoId,
    share_id: entry.shareId,
    title: entry.title,
    demo_title: listing.demoTitle,
    description: entry.description,
    position: entry.position,
    has_cover: entry.coverSha256 !== null,
    available: listing.demoStatus === 'published' && !listing.shareRevoked,
  };
}

export function toHubDetail(row: HubRow, collections: HubCollectionRow[], entries: HubEntryListing[], urls: ShareUrls) {
  return {
    ...toHub(row, urls),
    collections: collections.map((c) => ({
      ...toCollectionOut(c),
      entries: entries.filter((e) => e.entry.collectionId === c.id).map(toEntry),
    })),
  };
}
