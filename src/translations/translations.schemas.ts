// The translations API's requests and answers, and the row → JSON mapping (snake_case on the wire).
import { z } from 'zod';
import { iso } from '../core/time';
import { text } from '../core/text';
import { demoParams } from '../demos/demo-fields.schemas';
import { TRANSLATION_FORMATS } from './translation-files';
import type { TranslationRow } from './translations.repo';
import { TRANSLATION_ORIGINS, TRANSLATION_STATUSES } from './translations.tables';

const langTag = text()
  .max(35)
  .meta({ description: 'A BCP 47 language tag (`fr`, `pt-BR`); written back in its canonical case.', example: 'fr' });

export const langParams = demoParams.extend({ lang: langTag });

export const exportQuery = z
  .object({
    lang: langTag,
    format: z.enum(TRANSLATION_FORMATS).default('xliff').meta({ description: '`xliff` (XLIFF 2.0, the default) or `po` (gettext).' }),
    source_lang: langTag.default('en').meta({ description: 'The language the demo is written in, for the file’s header (XLIFF `srcLang`). Default `en`; once a language is imported, the one its file named.' }),
    version: z.enum(['draft', 'published']).default('draft').meta({ description: 'Whose text: the draft’s (default) or the live version’s (409 when never published).' }),
  })
  .strict()
  .meta({ examples: [{ lang: 'fr' }, { lang: 'de', format: 'po', version: 'published' }] });

export const importQuery = z
  .object({
    lang: langTag.optional().meta({ description: 'The language to store it as; default the file’s (XLIFF `trgLang`, PO `Language`). A file for another language is a 422.' }),
  })
  .strict()
  .meta({ examples: [{}, { lang: 'fr' }] });

export const machineBody = z
  .object({
    overwrite: z.boolean().default(false).meta({ description: 'Translate every unit again, not only those without a current translation.' }),
    source_lang: langTag.default('en').meta({ description: 'The language the demo is written in, for a language with no file yet. Default `en`.' }),
  })
  .strict()
  .meta({ examples: [{}, { overwrite: true }] });

export const updateBody = z
  .object({
    status: z.enum(TRANSLATION_STATUSES).optional().meta({ description: '`reviewed` approves the language: viewers get it from then on. `draft` takes it back.' }),
    units: z
      .array(
        z
          .object({
            id: text().max(200),
            target: text().max(20_000).nullable().meta({ description: 'The translation (rich units as HTML with the source’s tags and variables); null or empty removes it.' }),
          })
          .strict(),
      )
      .max(500)
      .optional(),
  })
  .strict()
  .meta({ examples: [{ status: 'reviewed' }, { units: [{ id: 'demo.title', target: 'Créer et envoyer une facture' }] }] });

export const viewerLanguageQuery = z
  .object({
    lang: text()
      .max(200)
      .optional()
      .meta({
        description:
          'The viewer’s languages in order of preference, comma-separated (`fr-CA,fr,en`): the player sends `?lang=` of its page, then the browser’s. ' +
          'The first the demo offers reviewed (exactly or by primary subtag) is served; the demo’s own language, or none, gives the original. docs/translation.md.',
        example: 'fr-CA,fr,en',
      }),
  })
  .meta({ examples: [{}, { lang: 'fr' }] });

/** The viewer asks for an asset in a language with `?lang=` (as a translated step's `html_url` has it). */
export const assetLanguage = z
  .string()
  .max(35)
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/)
  .optional()
  .meta({ description: 'A reviewed language of the demo, as a translated step’s `html_url` carries it: the snapshot is served with its texts in that language.', example: 'fr' });

const EXAMPLE = {
  lang: 'fr',
  source_lang: 'en',
  status: 'reviewed' as const,
  origin: 'import' as const,
  units_translated: 42,
  units_total: 44,
  revision: 3,
  reviewed_at: '2026-11-28T10:00:00.000Z',
  created_at: '2026-11-27T09:00:00.000Z',
  updated_at: '2026-11-28T10:00:00.000Z',
};

export const translationSchema = z
  .object({
    lang: z.string(),
    source_lang: z.string().meta({ description: 'The demo’s own language, as the imported file said (or `en`).' }),
    status: z.enum(TRANSLATION_STATUSES).meta({ description: '`draft`: not served. `reviewed`: served to viewers of the published version.' }),
    origin: z.enum(TRANSLATION_ORIGINS).meta({ description: 'What wrote it last: an imported file, the model, an edit.' }),
    units_translated: z.number().int().meta({ description: 'Units of the draft with a translation of their current source.' }),
    units_total: z.number().int().meta({ description: 'Units of the draft.' }),
    revision: z.number().int(),
    reviewed_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({
    id: 'Translation',
    examples: [EXAMPLE],
  });

const unitSchema = z.object({
  id: z.string().meta({ description: 'Stable: `step.<id>.title`, `hotspot.<id>.tooltip`, `page.<step id>.<n>`… (docs/translation.md).' }),
  kind: z.enum(['plain', 'html']).meta({ description: '`html`: rich text, whose tags must be kept.' }),
  note: z.string().meta({ description: 'Where the text shows.' }),
  source: z.string(),
  target: z.string().nullable(),
  state: z.enum(['translated', 'stale', 'missing']).meta({ description: '`stale`: translated from a source that has changed since (not served).' }),
});

export const translationDetailSchema = translationSchema.extend({ units: z.array(unitSchema) }).meta({
  id: 'TranslationDetail',
  examples: [
    {
      ...EXAMPLE,
      units: [{ id: 'demo.title', kind: 'plain', note: 'Demo title', source: 'Create an invoice', target: 'Créer une facture', state: 'translated' }],
    },
  ],
});

const unitErrorSchema = z.object({ unit: z.string(), message: z.string() });

export const importResultSchema = translationSchema
  .extend({
    imported: z.number().int().meta({ description: 'Units the file translated.' }),
    untranslated: z.number().int().meta({ description: 'Units the file left empty (or marked fuzzy).' }),
  })
  .meta({ id: 'TranslationImport', examples: [{ ...EXAMPLE, status: 'draft', imported: 40, untranslated: 4 }] });

export const machineResultSchema = translationSchema
  .extend({
    translated: z.number().int().meta({ description: 'Units the model translated in this run.' }),
    skipped: z.array(unitErrorSchema).meta({ description: 'Units whose answer lost or added markup or a variable (left untranslated).' }),
    remaining: z.number().int().meta({ description: 'Units past the run’s limit: run it again for them.' }),
    model: z.string(),
  })
  .meta({
    id: 'MachineTranslation',
    examples: [{ ...EXAMPLE, status: 'draft', origin: 'machine', translated: 44, skipped: [], remaining: 0, model: 'gpt-4o-mini' }],
  });

export function toTranslation(row: TranslationRow, translated: number, total: number) {
  return {
    lang: row.lang,
    source_lang: row.sourceLang,
    status: row.status,
    origin: row.origin,
    units_translated: translated,
    units_total: total,
    revision: row.revision,
    reviewed_at: row.reviewedAt ? iso(row.reviewedAt) : null,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
