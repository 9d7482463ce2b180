// The generator as the service builds it: Chromium and the AI writer when configured, HTML capture and the built-in writer otherwise.
import type { Config } from '../config';
import type { SafeFetch } from '../core/net/safe-fetch';
import { createAiWriter } from './ai-writer';
import { createChromiumCapturer } from './capture-chromium';
import { assembleGenerator, type Generator, type GeneratorDeps } from './generator';

export { CaptureError } from './capture-error';
export type { AiSettings } from './ai-writer';
export type { GenerationLog, Generator, GeneratorDeps } from './generator';
export { GenerationError } from './generator';
export type * from './generation.types';

/**
 * The demo generator: captures a page (Chromium when a binary is configured, else HTML through the SSRF
 * guard), follows a few same-origin links, and writes a tour of it. One browser is shared by every job,
 * started on first use and closed by `close()`.
 *
 * @example
 * const generator = createGenerator({ net: ctx.net, documents: ctx.documents, chromiumPath: config.CHROMIUM_PATH });
 * const result = await generator.generate({ url: 'https://example.com' });
 * await generator.close();
 */
export function createGenerator(deps: GeneratorDeps): Generator {
  const browser = deps.chromiumPath ? createChromiumCapturer({ net: deps.net, documents: deps.documents, chromiumPath: deps.chromiumPath, log: deps.log }) : null;
  return assembleGenerator(deps, { browser, aiWriter: deps.ai ? createAiWriter(deps.ai) : null });
}

/** The generator settings of the service's configuration. */
export function generatorDepsFromConfig(config: Config, net: SafeFetch, log?: GeneratorDeps['log']): Omit<GeneratorDeps, 'documents'> {
  const ai =
    config.AI_BASE_URL && config.AI_API_KEY && config.AI_MODEL
      ? { baseUrl: config.AI_BASE_URL, apiKey: config.AI_API_KEY, model: config.AI_MODEL, timeoutMs: config.AI_TIMEOUT }
      : null;
  return { net, chromiumPath: config.CHROMIUM_PATH, ai, log, maxPages: config.GENERATION_MAX_PAGES, timeoutMs: config.GENERATION_TIMEOUT };
}
