import { z } from 'zod';
import { idSchema } from '../core/ids';
import { paginationQuery } from '../core/pagination';
import type { ShareUrls } from '../core/share-urls';
import { iso, timestamp } from '../core/time';
import { ACCESS_DECISIONS, type AccessLogEntry } from './link-viewers';
import type { shares } from './shares.tables';
import { text, withoutNul } from '../core/text';

export type ShareRow = typeof shares.$inferSelect;

export const shareParams = z.object({ id: idSchema('share') });

const email = withoutNul(z.email())
  .max(254)
  .transform((v) => v.toLowerCase());
// A host name such as example.com or eu.example.co.uk: letters, digits, hyphens, at least one dot.
const domain = text()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/, 'must be a domain such as example.com');

/** As in `{{name}}` (VARIABLE_PATTERN of the story): a lowercase letter, then up to 39 of a-z, 0-9 and _. */
export const VARIABLE_NAME = /^[a-z][a-z0-9_]{0,39}$/;
const VARIABLE_NAME_MESSAGE = 'must be a variable name: a lowercase letter, then up to 39 lowercase letters, digits or _';
export const MAX_SHARE_VARIABLES = 30;
export const MAX_VARIABLE_VALUE = 200;

// Values are stored as given (text, never HTML): the player and the pages insert them as text, escaped.
const variables = z
  .record(text().regex(VARIABLE_NAME), text().max(MAX_VARIABLE_VALUE), {
    error: (issue) => (issue.code === 'invalid_key' ? VARIABLE_NAME_MESSAGE : undefined),
  })
  .refine((v) => Object.keys(v).length <= MAX_SHARE_VARIABLES, `must have at most ${MAX_SHARE_VARIABLES} variables`)
  .meta({
    maxProperties: MAX_SHARE_VARIABLES,
    description:
      'Personalisation values of this link (e.g. one made for one account): `{{company}}` in the demo shows `Acme`. ' +
      `Up to ${MAX_SHARE_VARIABLES} names (a lowercase letter, then a-z, 0-9, _; up to 40 characters), values text ` +
      `up to ${MAX_VARIABLE_VALUE} characters, always shown as text. URL parameters and form answers of the same name ` +
      'take precedence. See docs/personalisation.md.',
  });

const fields = {
  name: text().trim().max(100).meta({ description: 'A label for the link, e.g. "Sent to Acme".' }),
  password: text()
    .min(1)
    .max(200)
    .meta({ description: 'Viewers must enter it. Stored as an argon2id hash, never returned.' }),
  expires_at: timestamp.nullable().meta({ description: 'After this instant the link answers 410. Null: never.' }),
  require_identification: z.boolean().meta({ description: 'Viewers give a name and an e-mail address first.' }),
  allowed_emails: z
    .array(email)
    .max(500)
    .meta({ description: 'Only these addresses may identify (with require_identification). Empty: anyone.' }),
  allowed_domains: z
    .array(domain)
    .max(100)
    .meta({ description: 'Addresses at these domains may identify too (exact domain, no subdomains).' }),
  preview_title: text()
    .trim()
    .min(1)
    .max(100)
    .nullable()
    .meta({
      description:
        "Title of the link's unfurls (Open Graph, Twitter card) and of its gate, instead of the demo's own. Null: the " +
        "default (the demo's title, or on a password link without show_title_before_unlock the workspace's \"… shared a demo with you\").",
    }),
  preview_description: text()
    .trim()
    .min(1)
    .max(200)
    .nullable()
    .meta({ description: "Text of the link's unfurls. Null: the first step's text on an open link, a neutral sentence on a gated one." }),
  preview_image_asset_id: idSchema('asset')
    .nullable()
    .meta({
      description:
        "Image of the link's unfurls: an image of this demo (a step's screenshot or an image uploaded to a step: the `ast_…` " +
        'at the end of its `image_url`). Served to anyone holding the link, even before its gates. Null: the first ' +
        'screenshot on an open link, none on a gated one.',
    }),
  show_title_before_unlock: z.boolean().meta({
    description:
      "A password link names its demo (gate, page title, unfurls) before the password is entered. Off by default: the title stays protected.",
  }),
  variables,
};

/** The link's face before its gates: optional on create and update alike (null clears). */
const previewFields = {
  preview_title: fields.preview_title.optional(),
  preview_description: fields.preview_description.optional(),
  preview_image_asset_id: fields.preview_image_asset_id.optional(),
  show_title_before_unlock: fields.show_title_before_unlock.optional(),
};

export const createShareBody = z
  .object({
    password: fields.password.optional(),
    expires_at: fields.expires_at
      .optional()
      .meta({ description: "After this instant the link answers 410; null: never. Left out: the workspace's share default (never unless an admin set a number of days)." }),
    require_identification: fields.require_identification
      .optional()
      .meta({ description: "Viewers give a name and an e-mail address first. Left out: the workspace's share default (off unless an admin changed it)." }),
    name: fields.name.optional(),
    allowed_emails: fields.allowed_emails.optional(),
    allowed_domains: fields.allowed_domains.optional(),
    ...previewFields,
    variables: fields.variables.optional().meta({ description: 'Personalisation values (see `Share.variables`). Left out: none.' }),
  })
  .strict()
  .meta({
    examples: [
      { name: 'Sent to Acme' },
      { name: 'Acme evaluation', require_identification: true, allowed_domains: ['acme.com'], expires_at: '2026-12-31T23:59:59.000Z' },
      { name: 'Acme: Dana Scully', variables: { company: 'Acme', first_name: 'Dana' } },
    ],
  });

export const patchShareBody = z
  .object({
    name: fields.name.optional(),
    password: fields.password.nullable().optional().meta({ description: 'A new password, or null to remove it.' }),
    expires_at: fields.expires_at.optional(),
    require_identification: fields.require_identification.optional(),
    allowed_emails: fields.allowed_emails.optional(),
    allowed_domains: fields.allowed_domains.optional(),
    ...previewFields,
    variables: fields.variables
      .optional()
      .meta({ description: 'Replaces all of the link\'s personalisation values (`{}` removes them). Left out: unchanged.' }),
  })
  .strict()
  .meta({ examples: [{ expires_at: null }, { password: 'lighthouse-42' }, { variables: { company: 'Acme Corp', first_name: 'Dana' } }] });

/** Create and update alike: fields left out stay undefined (unchanged on update). */
export const toShareInput = <B extends z.infer<typeof patchShareBody> | z.infer<typeof createShareBody>>(body: B) => ({
  name: body.name,
  password: body.password as B['password'],
  expiresAt: body.expires_at,
  requireIdentification: body.require_identification as B['require_identification'],
  allowedEmails: body.allowed_emails,
  allowedDomains: body.allowed_domains,
  previewTitle: body.preview_title,
  previewDescription: body.preview_description,
  previewImageAssetId: body.preview_image_asset_id,
  showTitleBeforeUnlock: body.show_title_before_unlock,
  variables: body.variables,
});

export const shareSchema = z
  .object({
    id: z.string(),
    demo_id: z.string(),
    url: z.string().meta({ description: '{APP_URL}/s/<token>: the page viewers open.' }),
    embed_url: z.string().meta({ description: '{APP_URL}/embed/<token>: the same player, for an iframe.' }),
    name: z.string(),
    has_password: z.boolean(),
    expires_at: timestamp.nullable(),
    require_identification: z.boolean(),
    allowed_emails: z.array(z.string()),
    allowed_domains: z.array(z.string()),
    preview_title: z.string().nullable().meta({ description: 'Custom unfurl title; null: the default.' }),
    preview_description: z.string().nullable().meta({ description: 'Custom unfurl text; null: the default.' }),
    preview_image_asset_id: z.string().nullable().meta({ description: 'The image chosen for unfurls; null: the default.' }),
    preview_image_url: z.string().nullable().meta({
      description: '{APP_URL}/s/<token>/preview-image: where unfurls fetch the chosen image (public); null without one.',
    }),
    show_title_before_unlock: z.boolean(),
    variables: z.record(z.string(), z.string()).meta({
      description:
        'Personalisation values of this link: `{{name}}` in the demo shows the value (as text). `{}`: none. See docs/personalisation.md.',
    }),
    view_count: z.number().int().meta({ description: 'Views started through this link (one per viewer session).' }),
    last_viewed_at: timestamp.nullable().meta({ description: 'When the latest view through this link started; null: never viewed.' }),
    created_at: timestamp,
    updated_at: timestamp,
    hub_id: z.string().nullable().meta({
      description:
        'The demo hub that made this link for one of its entries (docs/hubs.md): it carries the hub’s gates and is ' +
        'never the demo’s share_url. Null: a link of its own.',
    }),
  })
  .meta({
    id: 'Share',
    examples: [
      {
        id: 'shr_01jd3m2k8p4q6r8s0t2v4w6x8y',
        demo_id: 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w',
        url: 'https://demos.example.com/s/Jx4f0qN2s8dW7kLp1vYb3cR6tZ9mH5gA',
        embed_url: 'https://demos.example.com/embed/Jx4f0qN2s8dW7kLp1vYb3cR6tZ9mH5gA',
        name: 'Acme evaluation',
        has_password: false,
        expires_at: '2026-12-31T23:59:59.000Z',
        require_identification: true,
        allowed_emails: [],
        allowed_domains: ['acme.com'],
        preview_title: 'Acme × Analytical Engines: invoicing in 2 minutes',
        preview_description: null,
        preview_image_asset_id: 'ast_01jd3k8c2d4e6f8g0h2j4k6m8n',
        preview_image_url: 'https://demos.example.com/s/Jx4f0qN2s8dW7kLp1vYb3cR6tZ9mH5gA/preview-image',
        show_title_before_unlock: false,
        variables: { company: 'Acme', first_name: 'Dana' },
        view_count: 12,
        last_viewed_at: '2026-11-24T15:42:10.000Z',
        created_at: '2026-11-21T10:10:00.000Z',
        updated_at: '2026-11-21T10:10:00.000Z',
        hub_id: null,
      },
    ],
  });

export const accessLogQuery = paginationQuery.strict();

export const accessLogEntrySchema = z
  .object({
    at: timestamp,
    decision: z.enum(ACCESS_DECISIONS),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    viewer_email: z.string().nullable(),
    viewer_name: z.string().nullable(),
  })
  .meta({
    id: 'ShareAccessLogEntry',
    examples: [
      {
        at: '2026-11-24T15:42:09.000Z',
        decision: 'identified',
        ip: '198.51.100.7',
        user_agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
        viewer_email: 'jane@acme.com',
        viewer_name: 'Jane Doe',
      },
    ],
  });

export function toShare(row: ShareRow, urls: ShareUrls) {
  return {
    id: row.id,
    demo_id: row.demoId,
    url: urls.page(row.token),
    embed_url: urls.embed(row.token),
    name: row.name,
    has_password: row.passwordHash !== null,
    expires_at: iso(row.expiresAt),
    require_identification: row.requireIdentification,
    allowed_emails: row.allowedEmails,
    allowed_domains: row.allowedDomains,
    preview_title: row.previewTitle,
    preview_description: row.previewDescription,
    preview_image_asset_id: row.previewImageAssetId,
    preview_image_url: row.previewImageAssetId ? `${urls.page(row.token)}/preview-image` : null,
    show_title_before_unlock: row.showTitleBeforeUnlock,
    variables: row.variables,
    view_count: row.viewCount,
    last_viewed_at: iso(row.lastViewedAt),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    hub_id: row.hubId,
  };
}

export function toAccessLogEntry(row: AccessLogEntry) {
  return {
    at: iso(row.at),
    decision: row.decision,
    ip: row.ip,
    user_agent: row.userAgent,
    viewer_email: row.viewerEmail,
    viewer_name: row.viewerName,
  };
}
