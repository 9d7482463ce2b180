import { defineModule } from '../module';
import { aiRoutes } from './ai.routes';
import { type AiSettingsFor, type AiSettingsService, createAiSettingsService } from './ai.service';

declare module '../module' {
  interface Services {
    /** `settingsFor` is what other modules may ask: the model a workspace writes with, or null. */
    ai: { settings: AiSettingsService; settingsFor: AiSettingsFor };
  }
}

/**
 * A workspace's own AI model (Settings → AI): an OpenAI-compatible address, model and sealed key that
 * generation and the editor's Rewrite use instead of the instance's AI_* one, and its connection test.
 *
 * @example
 * // demos names it and asks, when it generates or rewrites, which model a workspace writes with:
 * defineModule({ name: 'demos', needs: ['ai'], create: (kernel, deps) => ({ ... deps.ai.settingsFor(workspaceId) ... }) });
 */
export const aiModule = defineModule({
  name: 'ai',
  owns: { tables: 'ai.tables.ts', permissions: ['ai.manage'] },
  create: (kernel) => {
    const settings = createAiSettingsService(kernel);
    return { settings, settingsFor: settings.settingsFor };
  },
  routes: aiRoutes,
});
