// Translation files in and out: what export writes, and what an import takes from a file, unit by unit. Run in the document workers.
import { AppError } from '../core/errors';
import { assemble, piecesOf, type TargetPiece, targetPiecesOfText, targetText, UnitProblem } from './segments';
import type { SourceUnit } from './translation-units';
import { readPo, writePo } from './po';
import { readXliff, writeXliff } from './xliff';

export const TRANSLATION_FORMATS = ['xliff', 'po'] as const;
export type TranslationFormat = (typeof TRANSLATION_FORMATS)[number];

/** What an export writes: the demo's units, with the language's current translation where it has one. */
export interface ExportFile {
  demoId: string;
  title: string;
  sourceLang: string;
  lang: string;
  digest: string;
  /** The language is reviewed: XLIFF targets say `reviewed`, else `translated`. */
  reviewed: boolean;
  units: Array<SourceUnit & { target?: string }>;
}

/** A unit's text in a file: XLIFF's pieces with codes by id, or PO's text with markup as written. */
export type FileText = { pieces: TargetPiece[] } | { text: string };

/** What a file says, before it is checked against the demo. */
export interface ParsedFile {
  demoId: string | null;
  lang: string | null;
  units: Array<{ id: string; source: FileText; target: FileText | null }>;
}

export interface UnitError {
  unit: string;
  message: string;
}

/** An import checked against the demo's units: the translations it brings, or the problems, unit by unit. */
export interface CheckedImport {
  demoId: string | null;
  lang: string | null;
  targets: Record<string, { source: string; target: string }>;
  /** Units the file has that the demo does not (removed since the export) or whose source changed since. */
  stale: UnitError[];
  /** Units whose translation cannot be taken: a code lost, added or repeated. */
  errors: UnitError[];
  /** Units of the demo the file leaves untranslated. */
  untranslated: number;
}

export function writeTranslationFile(format: TranslationFormat, file: ExportFile): string {
  return format === 'po' ? writePo(file) : writeXliff(file);
}

/** Which format a file is in, from its first characters: XML is XLIFF, anything else PO. */
export const formatOf = (body: string): TranslationFormat => (/^\uFEFF?\s*</.test(body) ? 'xliff' : 'po');

function textIn(unit: SourceUnit, written: FileText): string {
  const source = piecesOf(unit.kind, unit.source);
  const pieces = 'pieces' in written ? written.pieces : targetPiecesOfText(unit.kind, source, written.text);
  return assemble(unit.kind, source, pieces);
}

const blank = (t: FileText) => ('text' in t ? t.text.trim() === '' : t.pieces.every((p) => typeof p === 'string' && p.trim() === ''));

/**
 * A translation file checked against the demo's units (`accepted`: each unit's source as it was exported
 * from, draft or live version). A unit is stale when the demo has no such unit or its source differs; its
 * translation is an error when a code of the source is missing, added or repeated. Throws (a malformed file)
 * with what is wrong.
 */
export function checkTranslationFile(body: string, accepted: Record<string, SourceUnit[]>): CheckedImport {
  const format = formatOf(body);
  let parsed: ParsedFile;
  try {
    parsed = format === 'xliff' ? readXliff(body) : readPo(body);
  } catch (error) {
    const message = `cannot be read as ${format === 'xliff' ? 'XLIFF 2.0' : 'PO'}: ${error instanceof Error ? error.message : String(error)}`;
    throw new AppError('invalid_request', `The file ${message}`, { details: [{ field: 'file', message }] });
  }
  const out: CheckedImport = { demoId: parsed.demoId, lang: parsed.lang, targets: {}, stale: [], errors: [], untranslated: 0 };
  const seen = new Set<string>();
  for (const u of parsed.units) {
    if (seen.has(u.id)) {
      out.errors.push({ unit: u.id, message: 'appears twice in the file' });
      continue;
    }
    seen.add(u.id);
    const candidates = accepted[u.id];
    if (!candidates) {
      out.stale.push({ unit: u.id, message: 'the demo has no such text any more' });
      continue;
    }
    const unit = candidates.find((c) => {
      try {
        return textIn(c, u.source) === c.source;
      } catch {
        return false;
      }
    });
    if (!unit) {
      out.stale.push({ unit: u.id, message: 'its source text changed since the file was exported' });
      continue;
    }
    if (!u.target || blank(u.target)) {
      out.untranslated++;
      continue;
    }
    try {
      const source = piecesOf(unit.kind, unit.source);
      const pieces = 'pieces' in u.target ? u.target.pieces : targetPiecesOfText(unit.kind, source, u.target.text);
      out.targets[u.id] = { source: unit.source, target: targetText(unit.kind, source, pieces) };
    } catch (error) {
      if (!(error instanceof UnitProblem)) throw error;
      out.errors.push({ unit: u.id, message: `the translation ${error.message}` });
    }
  }
  return out;
}
