// Request and response schemas of workspaces.routes.ts (settings, branding, logo).
import { z } from 'zod';
import { idSchema } from '../core/ids';
import { iso, timestamp } from '../core/time';
import { text } from '../core/text';
import { WORKSPACE_NAME_MAX } from './workspace-name';
import { FONT_KEYS, logoPath } from './branding';
import type { LogoRow, WorkspaceRow } from './workspaces.repo';

export { LOGO_MAX_BYTES, LOGO_MAX_SIDE } from './branding';

const brandColor = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour such as #4f46e5')
  .transform((v) => v.toLowerCase());

const font = z.enum(FONT_KEYS).meta({
  description:
    'The font of the player and share pages, a stack of fonts common systems ship with: `system`, `humanist`, ' +
    '`geometric`, `rounded`, `serif` or `mono`.',
});

const expiresInDays = z.number().int().min(1).max(365);

export const workspaceSettingsSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    created_at: timestamp,
    updated_at: timestamp,
    branding: z.object({
      brand_color: z.string().nullable().meta({
        description:
          'Accent of the player and the share pages (buttons, hotspots, progress). A demo whose configuration sets ' +
          '`theme_color` keeps its own. Null: the default, #4f46e5.',
      }),
      font,
      logo_url: z.string().nullable().meta({
        description: 'The logo on the share pages and in the player, public; its address changes with the logo. Null: none.',
      }),
      logo: z
        .object({ content_type: z.string(), width: z.number().int(), height: z.number().int() })
        .nullable()
        .meta({ description: 'The stored logo image: its type and size in pixels.' }),
    }),
    share_defaults: z
      .object({
        require_identification: z.boolean().meta({
          description: 'New share links ask viewers for their name and e-mail unless the request says otherwise.',
        }),
        expires_in_days: z.number().int().nullable().meta({
          description: 'New share links expire after this many days unless the request gives `expires_at`. Null: never.',
        }),
      })
      .meta({ description: 'What a new share link gets where the request (or the form) leaves the option out.' }),
  })
  .meta({
    id: 'WorkspaceSettings',
    examples: [
      {
        id: 'ws_01jd3k6y0z3a6b9c2d5e8f1g4h',
        name: 'Analytical Engines',
        created_at: '2026-11-20T09:12:00.000Z',
        updated_at: '2026-11-22T14:03:00.000Z',
        branding: {
          brand_color: '#0f766e',
          font: 'humanist',
          logo_url: 'https://api.example.com/v1/logos/ws_01jd3k6y0z3a6b9c2d5e8f1g4h/9f2c4e7a.png',
          logo: { content_type: 'image/png', width: 512, height: 128 },
        },
        share_defaults: { require_identification: true, expires_in_days: 30 },
      },
    ],
  });

export const patchWorkspaceBody = z
  .object({
    name: text().trim().min(1).max(WORKSPACE_NAME_MAX).optional(),
    branding: z
      .object({
        brand_color: brandColor.nullable().optional().meta({ description: 'A colour such as #0f766e, or null for the default.' }),
        font: font.optional(),
      })
      .strict()
      .optional(),
    share_defaults: z
      .object({
        require_identification: z.boolean().optional(),
        expires_in_days: expiresInDays.nullable().optional().meta({ description: '1 to 365, or null for never.' }),
      })
      .strict()
      .optional(),
  })
  .strict()
  .meta({
    examples: [
      { name: 'Analytical Engines', branding: { brand_color: '#0f766e', font: 'humanist' } },
      { share_defaults: { require_identification: true, expires_in_days: 30 } },
    ],
  });

export type WorkspaceChange = z.infer<typeof patchWorkspaceBody>;

export const logoUrlOf = (origin: string, row: Pick<WorkspaceRow, 'id' | 'logoSha256'>) =>
  row.logoSha256 ? `${origin}${logoPath(row.id, row.logoSha256)}` : null;

export function toWorkspaceSettings(row: WorkspaceRow, logo: LogoRow | undefined, origin: string) {
  return {
    id: row.id,
    name: row.name,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    branding: {
      brand_color: row.brandColor,
      font: row.font as (typeof FONT_KEYS)[number],
      logo_url: logoUrlOf(origin, row),
      logo: logo ? { content_type: logo.contentType, width: logo.width, height: logo.height } : null,
    },
    share_defaults: {
      require_identification: row.shareRequireIdentification,
      expires_in_days: row.shareExpiresInDays,
    },
  };
}

export const brandSchema = z
  .object({
    name: z.string().meta({ description: 'The workspace that shares the demo.' }),
    color: z.string().nullable().meta({ description: 'Its brand colour, or null for the default.' }),
    font: font,
    logo_url: z.string().nullable(),
  })
  .meta({ id: 'ViewerBrand', description: 'How the sharing workspace presents itself on its share pages.' });

export const logoParams = z.object({
  workspace_id: idSchema('workspace'),
  version: z.string().regex(/^[0-9a-f]{1,64}$/, 'must be the version in the logo_url'),
});
