// The translations domain as the app sees it: one module object, one line in app.ts.
import { defineModule } from '../module';
import { createMachineTranslation, type MachineTranslation } from './machine-translation';
import { createDemoTexts } from './translations-context';
import { createTranslationsForViewers, type TranslationsForViewers } from './translations-viewer';
import { translationsRoutes } from './translations.routes';
import { createTranslations, type TranslationsService } from './translations.service';

declare module '../module' {
  interface Services {
    translations: {
      translations: TranslationsService;
      machine: MachineTranslation;
      /** The viewing module's port: reviewed languages, translated content and pages. */
      forViewers: TranslationsForViewers;
    };
  }
}

/**
 * A demo's text in other languages: XLIFF 2.0 and PO files out and in, machine translation through the
 * workspace's model, review, and the reviewed languages served to viewers of the published version. docs/translation.md.
 *
 * @example
 * // app.ts: after demos and ai, before viewing (which asks it for a viewer's language).
 * const MODULES = [..., demosModule, ..., translationsModule, viewingModule, ...];
 */
export const translationsModule = defineModule({
  name: 'translations',
  owns: { tables: 'translations.tables.ts' },
  needs: ['demos', 'ai'],
  create(kernel, deps) {
    const base = {
      db: kernel.database.db,
      clock: kernel.clock,
      changes: kernel.changes,
      demos: deps.demos.reader,
      documents: kernel.documents,
      settingsFor: deps.ai.settingsFor,
    };
    const texts = createDemoTexts(base);
    const translations = createTranslations(base, texts);
    return {
      translations,
      machine: createMachineTranslation(base, texts, translations),
      forViewers: createTranslationsForViewers(base),
    };
  },
  routes: translationsRoutes,
});
