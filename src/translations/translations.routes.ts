// The translations API: export and import files, list, review and edit, remove, machine-translate.
import { z } from 'zod';
import { dataEnvelope, errorEnvelope, noContent, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { demoParams } from '../demos/demo-fields.schemas';
import type { ModuleContext, Services } from '../module';
import { MACHINE_MAX_UNITS } from './machine-translation';
import {
  exportQuery,
  importQuery,
  importResultSchema,
  langParams,
  machineBody,
  machineResultSchema,
  toTranslation,
  translationDetailSchema,
  translationSchema,
  updateBody,
} from './translations.schemas';
import { IMPORT_MAX_BYTES } from './translations.service';

const tags = ['Translations'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };

/** What an import takes as its body: the file as exported, under any of the types tools give these files. */
export const FILE_TYPES = ['application/xliff+xml', 'application/x-xliff+xml', 'application/xml', 'text/xml', 'text/x-gettext-translation', 'text/x-po', 'text/plain', 'application/octet-stream'];

const CONTENT_TYPES = { xliff: 'application/xliff+xml; charset=utf-8', po: 'text/x-gettext-translation; charset=utf-8' };
const EXTENSIONS = { xliff: 'xlf', po: 'po' };

const unitsHelp =
  'Units: the demo title and end call to action, chapter titles and descriptions, step titles and texts, hotspot labels and tooltips, ' +
  'buttons (labels, descriptions), form submit labels and field labels and placeholders, text page patches, and the texts of captured pages ' +
  '(`page.<step id>.<n>`). Rich text keeps its markup as inline codes (XLIFF `<pc>`/`<ph>`, PO: the HTML as written) and `{{variables}}` are protected. docs/translation.md.';

export function translationsRoutes(app: ZodApp, ctx: ModuleContext<Services['translations']>) {
  const { translations, machine } = ctx.services;
  if (!app.hasContentTypeParser('application/xliff+xml')) {
    app.addContentTypeParser(FILE_TYPES.filter((t) => !app.hasContentTypeParser(t)), { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  }

  // GET /v1/demos/:id/translations/export — the demo's text as XLIFF 2.0 or PO
  app.get(
    '/demos/:id/translations/export',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'Export a demo’s text for translation',
        description:
          `Every text of the demo (the draft by default) as an XLIFF 2.0 document (\`format=xliff\`, default) or a gettext PO file, ` +
          `with the language’s current translations filled in. ${unitsHelp} The file names its demo: an import into another demo is refused.`,
        params: demoParams,
        querystring: exportQuery,
        response: {
          200: {
            description: 'The file, as an attachment (`<demo title>.<lang>.xlf` or `.po`).',
            content: {
              'application/xliff+xml': { schema: z.string().meta({ example: '<?xml version="1.0" encoding="UTF-8"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">…</xliff>\n' }) },
              'text/x-gettext-translation': { schema: z.string().meta({ example: 'msgctxt "demo.title"\nmsgid "Create an invoice"\nmsgstr ""\n' }) },
            },
          },
          409: errorEnvelope,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const { body, lang } = await translations.exportFile(callerOf(request), request.params.id, {
        lang: q.lang,
        format: q.format,
        sourceLang: q.source_lang,
        version: q.version,
      });
      const name = `${request.params.id}.${lang}.${EXTENSIONS[q.format]}`;
      return reply.type(CONTENT_TYPES[q.format]).header('content-disposition', `attachment; filename="${name}"`).header('cache-control', 'no-store').send(body);
    },
  );

  // POST /v1/demos/:id/translations/import — a translated file in, as a draft
  app.post(
    '/demos/:id/translations/import',
    {
      config: { permission: 'demos.write', accepts: FILE_TYPES },
      bodyLimit: IMPORT_MAX_BYTES,
      schema: {
        tags,
        summary: 'Import a translated file',
        description:
          'The body is an XLIFF 2.0 or PO file exported from this demo, translated (the format is told from its first characters; any of the ' +
          `content types ${FILE_TYPES.map((t) => `\`${t}\``).join(', ')}). Checked whole before anything is stored: a file of another demo is a 422 naming \`file\`; ` +
          'units the demo no longer has, or whose source changed since the export (from the draft or the live version), and translations that lose, add or ' +
          'repeat markup or a `{{variable}}` are a 422 whose `details` name each unit (`units.<unit id>`). A malformed file is a 400. The units translated ' +
          'replace the language’s, the others are kept; the language becomes a `draft` until approved (PATCH). At most 32 MB.',
        params: demoParams,
        querystring: importQuery,
        response: { 200: dataEnvelope(importResultSchema), 413: errorEnvelope, 415: errorEnvelope, 422: errorEnvelope, ...errors },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      const body = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : JSON.stringify(request.body ?? '');
      const result = await translations.importFile(auth, request.params.id, body, { lang: request.query.lang });
      const counts = await translations.counts(auth, request.params.id, result.row);
      return ok(request, { ...toTranslation(result.row, counts.translated, counts.total), imported: result.imported, untranslated: result.untranslated });
    },
  );

  // GET /v1/demos/:id/translations — the demo's languages
  app.get(
    '/demos/:id/translations',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'List a demo’s languages',
        description: 'Every language the demo has a translation in (draft or reviewed), by tag, with how many of the draft’s units each covers.',
        params: demoParams,
        response: { 200: dataEnvelope(z.array(translationSchema)), ...errors },
      },
    },
    async (request) => {
      const { rows, total, covered } = await translations.list(callerOf(request), request.params.id);
      return ok(
        request,
        rows.map((r) => toTranslation(r, covered.get(r.lang) ?? 0, total)),
      );
    },
  );

  // GET /v1/demos/:id/translations/:lang — one language, unit by unit
  app.get(
    '/demos/:id/translations/:lang',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'Get a language unit by unit',
        description: 'Every unit of the draft with its source and this language’s text: `translated`, `stale` (translated from an older source: not served) or `missing`.',
        params: langParams,
        response: { 200: dataEnvelope(translationDetailSchema), ...errors },
      },
    },
    async (request) => {
      const { row, units, total } = await translations.get(callerOf(request), request.params.id, request.params.lang);
      const translated = units.filter((u) => u.state === 'translated').length;
      return ok(request, {
        ...toTranslation(row, translated, total),
        units: units.map((u) => ({ id: u.id, kind: u.kind, note: u.note, source: u.source, target: u.target, state: u.state })),
      });
    },
  );

  // PATCH /v1/demos/:id/translations/:lang — approve, take back, edit units
  app.patch(
    '/demos/:id/translations/:lang',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Review or edit a language',
        description:
          '`status: reviewed` approves the language: viewers of the published version get it from then on (`draft` takes it back). ' +
          '`units` sets units’ translations (null removes one), checked as an import is: a unit the demo lacks, or a translation that loses or adds markup or a ' +
          '`{{variable}}`, is a 422 naming `units.<unit id>`, and nothing changes. Edits keep the language’s status.',
        params: langParams,
        body: updateBody,
        response: { 200: dataEnvelope(translationSchema), 422: errorEnvelope, ...errors },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      const row = await translations.update(auth, request.params.id, request.params.lang, request.body);
      const counts = await translations.counts(auth, request.params.id, row);
      return ok(request, toTranslation(row, counts.translated, counts.total));
    },
  );

  // DELETE /v1/demos/:id/translations/:lang — remove a language
  app.delete(
    '/demos/:id/translations/:lang',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Remove a language',
        description: 'Viewers get the original from then on.',
        params: langParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await translations.remove(callerOf(request), request.params.id, request.params.lang);
      return reply.code(204).send(null);
    },
  );

  // POST /v1/demos/:id/translations/:lang/machine — machine-translate into a draft
  app.post(
    '/demos/:id/translations/:lang/machine',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Machine-translate a language',
        description:
          'The draft’s units the language has no current translation for (all with `overwrite`) go to the workspace’s AI model (Settings → AI, else the ' +
          `instance’s AI_* variables) in batches; each answer is checked as an import is and one that loses markup or a variable is skipped (\`skipped\`). ` +
          `At most ${MACHINE_MAX_UNITS} units per call (\`remaining\` says how many are left). The language becomes a \`draft\` to review. ` +
          '409 when no model is set up or the language is the demo’s own; 503 when the model fails.',
        params: langParams,
        body: machineBody,
        response: { 200: dataEnvelope(machineResultSchema), 409: errorEnvelope, 503: errorEnvelope, ...errors },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      const result = await machine.translate(auth, request.params.id, request.params.lang, {
        overwrite: request.body.overwrite,
        sourceLang: request.body.source_lang,
      });
      const counts = await translations.counts(auth, request.params.id, result.row);
      return ok(request, {
        ...toTranslation(result.row, counts.translated, counts.total),
        translated: result.translated,
        skipped: result.skipped,
        remaining: result.remaining,
        model: result.model,
      });
    },
  );
}
