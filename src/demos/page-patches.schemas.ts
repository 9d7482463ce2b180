// The requests and answers of page-patch routes: images uploaded for patches, patched snapshot addresses.
import { z } from 'zod';

export const patchedAssetQuery = z
  .object({
    patches: z
      .string()
      .regex(/^[0-9a-f]{16}$/)
      .optional()
      .meta({
        description:
          'The hash of a step’s page patches, as `html_url` carries it: the snapshot is served with those patches ' +
          'applied. A hash no step has any more serves the snapshot as captured.',
        example: '3f2a9c0d1e7b4a56',
      }),
  })
  .meta({ examples: [{ patches: '3f2a9c0d1e7b4a56' }, {}] });

export const patchImageSchema = z
  .object({
    id: z.string().meta({ description: 'The asset id: the `value` of an `image` page patch.' }),
    url: z.string().meta({ description: 'Where the editor fetches it (GET /v1/demos/{id}/assets/{asset_id}).' }),
    content_type: z.enum(['image/png', 'image/jpeg', 'image/webp']),
    width: z.number().int(),
    height: z.number().int(),
  })
  .meta({
    id: 'PatchImage',
    examples: [
      {
        id: 'ast_01jd3k8c2d4e6f8g0h2j4k6m8n',
        url: 'https://api.example.com/v1/demos/demo_01jd3k7q9x8v2m4n6p0r5s7t9w/assets/ast_01jd3k8c2d4e6f8g0h2j4k6m8n',
        content_type: 'image/png',
        width: 240,
        height: 80,
      },
    ],
  });
