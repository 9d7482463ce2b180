// The guide export's query, as the API speaks it.
import { z } from 'zod';

export const GUIDE_FORMATS = ['markdown', 'pdf'] as const;
export const GUIDE_VERSIONS = ['draft', 'published'] as const;

export const guideQuery = z
  .object({
    format: z.enum(GUIDE_FORMATS).default('markdown').meta({
      description:
        '`markdown`: a zip of `guide.md` and `images/NN-<title>.png` (each step’s screenshot with its hotspots marked). ' +
        '`pdf`: the same guide printed to one PDF (needs Chromium on the server).',
      example: 'pdf',
    }),
    version: z.enum(GUIDE_VERSIONS).default('draft').meta({
      description: '`draft`: the demo as the editor shows it now. `published`: the version viewers are served (409 when never published).',
      example: 'published',
    }),
  })
  .strict();
export type GuideQuery = z.infer<typeof guideQuery>;
