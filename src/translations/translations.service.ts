// A demo's languages: exported, imported, listed, reviewed and edited, removed.
import type { AuthContext } from '../auth/permissions';
import { tags } from '../core/changes';
import { AppError, conflict, notFound } from '../core/errors';
import { canonicalLang } from './languages';
import { piecesOf, targetPiecesOfText, targetText, UnitProblem } from './segments';
import type { TranslationFormat, UnitError } from './translation-files';
import { currentTargets, type SourceUnit, sourceDigest } from './translation-units';
import type { DemoTexts, TranslationsDeps } from './translations-context';
import * as repo from './translations.repo';
import type { StoredUnit, TranslationStatus } from './translations.tables';

/** The largest translation file an import takes. */
export const IMPORT_MAX_BYTES = 32 * 1024 * 1024;

export interface ExportOptions {
  lang: string;
  format: TranslationFormat;
  sourceLang: string;
  version: 'draft' | 'published';
}

export interface UnitEdit {
  id: string;
  /** The new translation; null removes it (the original shows). */
  target: string | null;
}

const unitsField = (id: string) => `units.${id}`;

/** A unit's state in a language: translated and current, translated from a source that changed since, or missing. */
export type UnitState = 'translated' | 'stale' | 'missing';

/**
 * The translations of a demo, language by language. An import or a machine run leaves the language a
 * `draft`; an editor approves it (`reviewed`) and only then do viewers see it (translations-viewer.ts).
 *
 * @example
 * const translations = createTranslations(deps, texts);
 * const { body } = await translations.exportFile(auth, demoId, { lang: 'fr', format: 'xliff', sourceLang: 'en', version: 'draft' });
 * await translations.importFile(auth, demoId, translatedBody, {});
 * await translations.update(auth, demoId, 'fr', { status: 'reviewed' });
 */
export function createTranslations(deps: TranslationsDeps, texts: DemoTexts) {
  const { db } = deps;

  async function requireDemo(auth: AuthContext, demoId: string) {
    const demo = await deps.demos.find(auth.workspaceId, demoId);
    if (!demo) throw notFound('Demo');
    return demo;
  }

  function langOf(raw: string, field = 'lang') {
    const lang = canonicalLang(raw);
    if (!lang) throw new AppError('invalid_request', `${field} must be a language tag such as fr or pt-BR`, { details: [{ field, message: 'not a BCP 47 language tag' }] });
    return lang;
  }

  async function requireTranslation(auth: AuthContext, demoId: string, lang: string) {
    await requireDemo(auth, demoId);
    const row = await repo.findTranslation(db, demoId, langOf(lang));
    if (!row) throw notFound('Translation');
    return row;
  }

  /** GET /v1/demos/:id/translations/export: the demo's text with the language's translation so far. */
  async function exportFile(auth: AuthContext, demoId: string, options: ExportOptions) {
    const demo = await requireDemo(auth, demoId);
    const lang = langOf(options.lang);
    const sourceLang = langOf(options.sourceLang, 'source_lang');
    const text = options.version === 'published' ? await texts.published(auth.workspaceId, demoId) : await texts.draft(auth.workspaceId, demoId);
    if (!text) throw conflict('This demo has never been published: export the draft (version=draft)');
    const row = await repo.findTranslation(db, demoId, lang);
    const targets = currentTargets(text.units, row?.units ?? {});
    const body = await deps.documents.run('writeTranslationFile', [
      options.format,
      {
        demoId,
        title: demo.demo.title,
        sourceLang: row?.sourceLang ?? sourceLang,
        lang,
        digest: sourceDigest(text.units),
        reviewed: row?.status === 'reviewed',
        units: text.units.map((u) => ({ ...u, ...(targets.has(u.id) ? { target: targets.get(u.id) } : {}) })),
      },
    ]);
    return { body, lang, units: text.units.length };
  }

  /** The sources a file may have been exported from, by unit: the draft's and the live version's. */
  async function acceptedSources(auth: AuthContext, demoId: string) {
    const [draft, live] = await Promise.all([texts.draft(auth.workspaceId, demoId), texts.published(auth.workspaceId, demoId)]);
    const accepted: Record<string, SourceUnit[]> = {};
    for (const u of [...draft.units, ...(live?.units ?? [])]) {
      const list = accepted[u.id] ?? [];
      accepted[u.id] = list;
      if (!list.some((c) => c.source === u.source)) list.push(u);
    }
    return { accepted, draft };
  }

  /** POST /v1/demos/:id/translations/import: a translated XLIFF or PO file in, the language a draft. All or nothing. */
  async function importFile(auth: AuthContext, demoId: string, body: string, options: { lang?: string }) {
    await requireDemo(auth, demoId);
    const { accepted, draft } = await acceptedSources(auth, demoId);
    const checked = await deps.documents.run('checkTranslationFile', [body, accepted], { field: 'file', what: 'The translation file' });
    if (checked.demoId !== demoId) {
      const message = checked.demoId ? `was exported from another demo (${checked.demoId})` : 'does not name its demo (export one from this demo)';
      throw new AppError('validation_error', `This file ${message}: nothing was imported`, { details: [{ field: 'file', message }] });
    }
    const lang = options.lang ? langOf(options.lang) : checked.lang ? langOf(checked.lang, 'file') : null;
    if (!lang) throw new AppError('invalid_request', 'The file names no target language: pass ?lang=', { details: [{ field: 'lang', message: 'Required' }] });
    if (options.lang && checked.lang && canonicalLang(checked.lang) !== lang) {
      throw new AppError('validation_error', `The file is a translation into ${checked.lang}, not ${lang}: nothing was imported`, {
        details: [{ field: 'lang', message: `the file says ${checked.lang}` }],
      });
    }
    const problems = [...checked.stale, ...checked.errors];
    if (problems.length > 0) throw unitErrors(problems, checked.stale.length > 0);
    const sourceLang = sourceLangOf(body) ?? 'en';
    const row = await db.transaction(async (tx) => {
      const current = await repo.lockTranslation(tx, demoId, lang);
      const units: Record<string, StoredUnit> = { ...(current?.units ?? {}), ...checked.targets };
      return repo.saveTranslation(tx, {
        demoId,
        workspaceId: auth.workspaceId,
        lang,
        sourceLang: current?.sourceLang ?? sourceLang,
        units,
        status: 'draft',
        origin: 'import',
        sourceDigest: sourceDigest(draft.units),
        reviewedAt: null,
        reviewedById: null,
        at: deps.clock.now(),
      });
    });
    await deps.changes.announce(tags.demo(demoId));
    return { row, imported: Object.keys(checked.targets).length, untranslated: checked.untranslated, total: draft.units.length };
  }

  /** GET /v1/demos/:id/translations: the demo's languages, with how much of the draft each covers. */
  async function list(auth: AuthContext, demoId: string) {
    await requireDemo(auth, demoId);
    const rows = await repo.listTranslations(db, demoId);
    if (rows.length === 0) return { rows, total: 0, covered: new Map<string, number>() };
    const { units } = await texts.draft(auth.workspaceId, demoId);
    const covered = new Map(rows.map((r) => [r.lang, currentTargets(units, r.units).size]));
    return { rows, total: units.length, covered };
  }

  /** GET /v1/demos/:id/translations/:lang: every unit of the draft, its source and the language's text. */
  async function get(auth: AuthContext, demoId: string, lang: string) {
    const row = await requireTranslation(auth, demoId, lang);
    const { units } = await texts.draft(auth.workspaceId, demoId);
    return { row, total: units.length, units: units.map((u) => ({ ...u, ...unitState(u, row.units[u.id]) })) };
  }

  /** PATCH /v1/demos/:id/translations/:lang: approve (or back to draft), and edit units, checked as an import is. */
  async function update(auth: AuthContext, demoId: string, lang: string, input: { status?: TranslationStatus; units?: UnitEdit[] }) {
    const found = await requireTranslation(auth, demoId, lang);
    const edits = new Map<string, StoredUnit | null>();
    if (input.units?.length) {
      const { accepted } = await acceptedSources(auth, demoId);
      const problems: UnitError[] = [];
      for (const edit of input.units) {
        // The draft's source first: an edit is for the text being worked on.
        const unit = accepted[edit.id]?.[0];
        if (!unit) {
          problems.push({ unit: edit.id, message: 'the demo has no such text' });
          continue;
        }
        if (edit.target === null || edit.target.trim() === '') {
          edits.set(edit.id, null);
          continue;
        }
        try {
          const source = piecesOf(unit.kind, unit.source);
          edits.set(edit.id, { source: unit.source, target: targetText(unit.kind, source, targetPiecesOfText(unit.kind, source, edit.target)) });
        } catch (error) {
          if (!(error instanceof UnitProblem)) throw error;
          problems.push({ unit: edit.id, message: `the translation ${error.message}` });
        }
      }
      if (problems.length > 0) throw unitErrors(problems, false);
    }
    const row = await db.transaction(async (tx) => {
      const current = await repo.lockTranslation(tx, demoId, found.lang);
      if (!current) throw notFound('Translation');
      const units = { ...current.units };
      for (const [id, unit] of edits) {
        if (unit) units[id] = unit;
        else delete units[id];
      }
      const status = input.status ?? current.status;
      const approved = status === 'reviewed' && current.status !== 'reviewed';
      return repo.saveTranslation(tx, {
        ...current,
        units,
        status,
        origin: edits.size > 0 ? 'edit' : current.origin,
        reviewedAt: status === 'reviewed' ? (approved ? deps.clock.now() : current.reviewedAt) : null,
        reviewedById: status === 'reviewed' ? (approved ? auth.userId : current.reviewedById) : null,
        at: deps.clock.now(),
      });
    });
    await deps.changes.announce(tags.demo(demoId));
    return row;
  }

  /** DELETE /v1/demos/:id/translations/:lang */
  async function remove(auth: AuthContext, demoId: string, lang: string) {
    await requireDemo(auth, demoId);
    const deleted = await db.transaction((tx) => repo.deleteTranslation(tx, demoId, langOf(lang)));
    if (!deleted) throw notFound('Translation');
    await deps.changes.announce(tags.demo(demoId));
  }

  /** How many of the draft's units the language translates (their current source), of how many. */
  async function counts(auth: AuthContext, demoId: string, row: { units: Record<string, StoredUnit> }) {
    const { units } = await texts.draft(auth.workspaceId, demoId);
    return { translated: currentTargets(units, row.units).size, total: units.length };
  }

  return { exportFile, importFile, list, get, update, remove, counts, requireDemo, langOf, acceptedSources };
}

function unitState(unit: SourceUnit, stored: StoredUnit | undefined): { state: UnitState; target: string | null } {
  if (!stored) return { state: 'missing', target: null };
  return { state: stored.source === unit.source ? 'translated' : 'stale', target: stored.target };
}

/** 422 naming each unit at fault (`units.<id>`); nothing is written. */
export function unitErrors(problems: UnitError[], stale: boolean) {
  const shown = problems.slice(0, 5).map((p) => `${p.unit} ${p.message}`);
  const more = problems.length > 5 ? ` and ${problems.length - 5} more` : '';
  const hint = stale ? ' Export the file again and carry your translations over.' : '';
  return new AppError('validation_error', `${problems.length} unit(s) cannot be imported: ${shown.join('; ')}${more}. Nothing was imported.${hint}`, {
    details: problems.slice(0, 100).map((p) => ({ field: unitsField(p.unit), message: p.message })),
  });
}

/** The source language a file states (XLIFF srcLang, PO X-Demoshare-Source-Language), canonical. */
function sourceLangOf(body: string): string | null {
  const m = /srcLang="([^"]+)"/.exec(body.slice(0, 2000)) ?? /X-Demoshare-Source-Language:\s*([A-Za-z0-9-]+)/.exec(body.slice(0, 2000));
  return m ? canonicalLang(m[1]!) : null;
}

export type TranslationsService = ReturnType<typeof createTranslations>;
