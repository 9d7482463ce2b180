// The public hub viewer API's wire shapes (/v1/hub-viewer/:token…).
import { z } from 'zod';
import { idSchema } from '../core/ids';
import { text, withoutNul } from '../core/text';
import { brandSchema } from '../workspaces/workspaces.schemas';
import type { Brand } from '../workspaces/branding';
import type { HubSessionRow } from './hub-visits.repo';
import type { HubRow } from './hubs.repo';
import type { HubViewer } from './hub-viewer.service';
import { gateFields } from './hub-viewer.service';

export const hubViewerParams = z.object({ token: z.string().min(16).max(100).regex(/^[A-Za-z0-9_-]+$/) });
export const hubViewerEntryParams = hubViewerParams.extend({ entry_id: idSchema('hubEntry') });

const answer = text().trim().max(200);

export const hubAccessBody = z
  .object({
    password: text().max(200).optional(),
    name: text().trim().max(200).optional(),
    email: withoutNul(z.email()).max(254).optional(),
    company: answer.optional(),
    job_title: answer.optional(),
    phone: answer.optional(),
  })
  .strict()
  .meta({ examples: [{ password: 'harbour-lights', name: 'Jane Doe', email: 'jane@acme.com', company: 'Acme' }] });

const cardSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  cover_url: z.string().meta({ description: 'The card’s image; 404 (show the brand colour) when the entry has none to show.' }),
});

export const hubViewerStateSchema = z
  .object({
    gate: z.enum(['password', 'identification', 'ready']).meta({ description: 'The gate the viewer stands at; `ready`: the hub is open.' }),
    fields: z
      .array(z.string())
      .meta({ description: 'What the gate form asks, in order: `password`, `name`, `email`, then lead-form fields (`company`, `job_title`, `phone`).' }),
    hub: z.object({
      title: z.string(),
      intro: z.string(),
      cta_label: z.string().nullable(),
      cta_url: z.string().nullable(),
      brand: brandSchema,
    }),
    viewer: z.object({ name: z.string().nullable(), email: z.string() }).optional(),
    collections: z
      .array(z.object({ id: z.string(), name: z.string(), entries: z.array(cardSchema) }))
      .meta({ description: 'At the `ready` gate only: the collections with their published demos, in order. Empty before.' }),
    session_token: z
      .string()
      .optional()
      .meta({ description: 'A new hub session: also set as a cookie unless the request says `x-viewer-consent: pending`; send it back in `x-hub-session`.' }),
  })
  .meta({
    id: 'HubViewerState',
    examples: [
      {
        gate: 'ready',
        fields: [],
        hub: {
          title: 'See Acme in action',
          intro: 'Short interactive tours.',
          cta_label: 'Book a demo',
          cta_url: 'https://acme.example/book',
          brand: { name: 'Acme', color: '#0f766e', font: 'system', logo_url: null },
        },
        viewer: { name: 'Jane Doe', email: 'jane@acme.com' },
        collections: [
          {
            id: 'hcol_01jd3m2k8p4q6r8s0t2v4w6x8y',
            name: 'Getting started',
            entries: [
              {
                id: 'hent_01jd3m2k8p4q6r8s0t2v4w6x8y',
                title: 'Create your first invoice',
                description: 'From a customer to a sent invoice in six clicks.',
                cover_url: '/v1/hub-viewer/Jx4f0qN2s8dW7kLp1vYb3cR6tZ9mH5gAaBcDeFgHiJk/entries/hent_01jd3m2k8p4q6r8s0t2v4w6x8y/cover',
              },
            ],
          },
        ],
      },
    ],
  });

export const hubOpenSchema = z
  .object({
    share_token: z.string(),
    page_url: z.string().meta({ description: 'The entry’s player page (its link).' }),
    embed_url: z.string().meta({ description: 'The entry’s player for an iframe.' }),
    session_token: z.string().meta({
      description:
        'A viewer session on the entry’s link, past the gates the hub checked: hand it to the player as `#ds_session=<token>` or send it in `x-viewer-session`.',
    }),
  })
  .meta({
    id: 'HubOpen',
    examples: [
      {
        share_token: 'Qm4f0qN2s8dW7kLp1vYb3cR6tZ9mH5gAaBcDeFgHiJk',
        page_url: 'https://demos.example.com/s/Qm4f0qN2s8dW7kLp1vYb3cR6tZ9mH5gAaBcDeFgHiJk',
        embed_url: 'https://demos.example.com/embed/Qm4f0qN2s8dW7kLp1vYb3cR6tZ9mH5gAaBcDeFgHiJk',
        session_token: 'Zt9mH5gAaBcDeFgHiJkJx4f0qN2s8dW7kLp1vYb3cR6',
      },
    ],
  });

export function toHubViewerState(
  hub: HubRow,
  session: HubSessionRow | undefined,
  brand: Brand,
  gate: 'password' | 'identification' | 'ready',
  collections: Awaited<ReturnType<HubViewer['content']>>,
  token: string,
  issued: string | undefined,
) {
  return {
    gate,
    fields: gateFields(hub, session),
    hub: { title: hub.title, intro: hub.intro, cta_label: hub.ctaLabel, cta_url: hub.ctaUrl, brand },
    ...(session?.viewerEmail ? { viewer: { name: session.viewerName, email: session.viewerEmail } } : {}),
    collections: collections.map(({ collection, entries }) => ({
      id: collection.id,
      name: collection.name,
      entries: entries.map((e) => ({
        id: e.entry.id,
        title: e.entry.title ?? e.demoTitle,
        description: e.entry.description,
        cover_url: `/v1/hub-viewer/${token}/entries/${e.entry.id}/cover${e.entry.coverSha256 ? `?v=${e.entry.coverSha256.slice(0, 12)}` : ''}`,
      })),
    })),
    ...(issued ? { session_token: issued } : {}),
  };
}
