// Machine translation through the workspace's OpenAI-compatible model: a draft an editor reviews before viewers see it.
import type { AuthContext } from '../auth/permissions';
import { tags } from '../core/changes';
import { AppError, conflict } from '../core/errors';
import { type AiSettings, AiWriterError, chatCompletion, parseJson } from '../generation/ai-chat';
import { z } from 'zod';
import { piecesOf, targetPiecesOfText, targetText, UnitProblem } from './segments';
import type { UnitError } from './translation-files';
import { currentTargets, type SourceUnit, sourceDigest } from './translation-units';
import type { DemoTexts, TranslationsDeps } from './translations-context';
import * as repo from './translations.repo';
import type { TranslationsService } from './translations.service';
import type { StoredUnit } from './translations.tables';

/** The most units one run sends to the model; a demo with more is translated in several runs (each keeps what the last did). */
export const MACHINE_MAX_UNITS = 2000;
/** Units per request, and characters: small enough for any model's context and reply. */
const BATCH_UNITS = 40;
const BATCH_CHARS = 6000;
/** Requests in flight at once for one run. */
const PARALLEL = 2;

const SYSTEM_PROMPT =
  'You translate the texts of an interactive product demo (screens of a web application, their captions, buttons and form labels). ' +
  'Translate each unit from the source language into the target language, naturally and concisely, as a product team would write it. ' +
  'Rich units are HTML: keep every tag and attribute exactly as written and translate only the words between them. ' +
  'Keep every {{name}} placeholder exactly; in {{name|fallback}} you may translate the fallback after the bar. ' +
  'Do not translate product names, URLs or e-mail addresses. Answer with JSON: {"translations": [{"id": "...", "text": "..."}]}, one entry per unit given.';

const RESPONSE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['translations'],
  properties: {
    translations: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['id', 'text'], properties: { id: { type: 'string' }, text: { type: 'string' } } },
    },
  },
};
const replySchema = z.object({ translations: z.array(z.object({ id: z.string(), text: z.string() })) });

function batches(units: SourceUnit[]): SourceUnit[][] {
  const out: SourceUnit[][] = [];
  let current: SourceUnit[] = [];
  let chars = 0;
  for (const u of units) {
    if (current.length > 0 && (current.length >= BATCH_UNITS || chars + u.source.length > BATCH_CHARS)) {
      out.push(current);
      current = [];
      chars = 0;
    }
    current.push(u);
    chars += u.source.length;
  }
  if (current.length > 0) out.push(current);
  return out;
}

async function ask(settings: AiSettings, sourceLang: string, lang: string, units: SourceUnit[]): Promise<Map<string, string>> {
  const user = JSON.stringify({
    source_language: sourceLang,
    target_language: lang,
    units: units.map((u) => ({ id: u.id, text: u.source, ...(u.kind === 'html' ? { rich: true } : {}) })),
  });
  const messages = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: user },
  ];
  let format: object = { type: 'json_schema', json_schema: { name: 'demo_translation', strict: true, schema: RESPONSE_SCHEMA } };
  let last: AiWriterError | undefined;
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      const reply = await chatCompletion(settings, { messages, temperature: 0.2, response_format: format }, settings.timeoutMs ?? 60_000);
      const parsed = replySchema.safeParse(parseJson(reply.content));
      if (!parsed.success) throw new AiWriterError('the reply did not match the expected shape');
      return new Map(parsed.data.translations.map((t) => [t.id, t.text]));
    } catch (error) {
      if (!(error instanceof AiWriterError)) throw error;
      last = error;
      if (!last.retryable) break;
      if (/HTTP 400/.test(last.message)) format = { type: 'json_object' };
    }
  }
  throw new AppError('unavailable', `The AI model could not translate: ${last!.message}. Try again, or check Settings → AI.`);
}

/**
 * POST /v1/demos/:id/translations/:lang/machine: the draft's units the language lacks (all of them with
 * `overwrite`) sent to the workspace's model in batches; each answer is checked as an import is (markup and
 * variables intact) and a unit that fails is left untranslated and reported. The language becomes a draft.
 */
export function createMachineTranslation(deps: TranslationsDeps, texts: DemoTexts, translations: Pick<TranslationsService, 'requireDemo' | 'langOf'>) {
  async function translate(auth: AuthContext, demoId: string, rawLang: string, options: { overwrite: boolean; sourceLang: string }) {
    await translations.requireDemo(auth, demoId);
    const lang = translations.langOf(rawLang);
    const sourceLang = translations.langOf(options.sourceLang, 'source_lang');
    if (lang === sourceLang) throw conflict(`${lang} is the demo's own language`);
    const settings = await deps.settingsFor(auth.workspaceId);
    if (!settings) throw conflict('No AI model is set up: add one in Settings → AI (or the AI_BASE_URL, AI_API_KEY and AI_MODEL variables)');
    const draft = await texts.draft(auth.workspaceId, demoId);
    const existing = await repo.findTranslation(deps.db, demoId, lang);
    const done = currentTargets(draft.units, existing?.units ?? {});
    const todo = draft.units.filter((u) => options.overwrite || !done.has(u.id));
    const sent = todo.slice(0, MACHINE_MAX_UNITS);
    const results: Record<string, StoredUnit> = {};
    const skipped: UnitError[] = [];
    const queue = batches(sent);
    const work = async () => {
      for (let batch = queue.shift(); batch; batch = queue.shift()) {
        const answers = await ask(settings, existing?.sourceLang ?? sourceLang, lang, batch);
        for (const unit of batch) {
          const text = answers.get(unit.id);
          if (!text?.trim()) {
            skipped.push({ unit: unit.id, message: 'the model gave no translation' });
            continue;
          }
          try {
            const source = piecesOf(unit.kind, unit.source);
            results[unit.id] = { source: unit.source, target: targetText(unit.kind, source, targetPiecesOfText(unit.kind, source, text)) };
          } catch (error) {
            if (!(error instanceof UnitProblem)) throw error;
            skipped.push({ unit: unit.id, message: `the model's translation ${error.message}` });
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, queue.length) }, work));
    const row = await deps.db.transaction(async (tx) => {
      const current = await repo.lockTranslation(tx, demoId, lang);
      return repo.saveTranslation(tx, {
        demoId,
        workspaceId: auth.workspaceId,
        lang,
        sourceLang: current?.sourceLang ?? sourceLang,
        units: { ...(current?.units ?? {}), ...results },
        status: 'draft',
        origin: 'machine',
        sourceDigest: sourceDigest(draft.units),
        reviewedAt: null,
        reviewedById: null,
        at: deps.clock.now(),
      });
    });
    await deps.changes.announce(tags.demo(demoId));
    return { row, translated: Object.keys(results).length, skipped, remaining: todo.length - sent.length, total: draft.units.length, model: settings.model };
  }

  return { translate };
}

export type MachineTranslation = ReturnType<typeof createMachineTranslation>;
