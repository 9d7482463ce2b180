import { z } from 'zod';
import { brandSchema } from '../workspaces/workspaces.schemas';
import { HOTSPOT_ACTIONS } from '../demos/demos.tables';
import { configurationSchema } from '../demos/demo-configuration.schemas';
import { text, withoutNul } from '../core/text';

// Long enough for any token we issue (43 characters), short enough that nobody stores a novel in a cache key.
export const viewerParams = z.object({ token: z.string().min(16).max(100).regex(/^[A-Za-z0-9_-]+$/) });
export const viewerAssetParams = viewerParams.extend({ asset_id: text().max(40) });

const gate = z.enum(['password', 'identification', 'ready']).meta({
  description: 'The next thing the viewer must do: enter the password, identify, or nothing (play).',
});

export const viewerStateSchema = z
  .object({
    gate,
    share: z.object({ require_identification: z.boolean(), has_password: z.boolean() }),
    viewer: z.object({ name: z.string().nullable(), email: z.string().nullable() }).optional(),
    session_token: z.string().optional().meta({
      description:
        'Only when a new viewer session was started. Same value as the cookie; a player that cannot use ' +
        'cookies (a cross-site iframe) sends it back in `X-Viewer-Session`.',
    }),
  })
  .meta({ id: 'ViewerState' });

export const unlockBody = z.object({ password: text().min(1).max(200) }).strict();
export const identifyBody = z
  .object({
    name: text().trim().min(1).max(100),
    email: withoutNul(z.email()).max(254),
  })
  .strict();

const ASSET_URL =
  'A path on this server (`/v1/viewer/{token}/assets/{asset_id}`), to resolve against the address the payload ' +
  'was fetched from, so the player works through any host name that reaches the server; an absolute URL on ' +
  '`API_URL` when that is set.';

export const viewerDemoSchema = z
  .object({
    version: z.number().int().meta({
      description: 'The published version played (see GET /v1/demos/:id/versions): views record it.',
    }),
    title: z.string(),
    configuration: configurationSchema,
    brand: brandSchema,
    steps: z.array(
      z.object({
        number: z.number().int(),
        title: z.string(),
        description: z.string(),
        image_url: z.string().nullable().meta({ description: ASSET_URL }),
        html_url: z.string().nullable().meta({ description: ASSET_URL }),
        width: z.number().int().nullable(),
        height: z.number().int().nullable(),
        hotspots: z.array(
          z.object({
            id: z.string(),
            x: z.number(),
            y: z.number(),
            width: z.number(),
            height: z.number(),
            selector: z.string().optional().meta({
              description:
                'Only on snapshot steps (html_url, no image_url): the element the hotspot points at, which the ' +
                'player finds in the snapshot, since an HTML capture has no layout to place the box by.',
            }),
            label: z.string(),
            tooltip: z.string(),
            action: z.object({ type: z.enum(HOTSPOT_ACTIONS), target: z.union([z.number(), z.string()]).nullable() }),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'ViewerDemo' });
