// The port to generation (an address in, steps out), injected through AppDeps.
import type { GenerationOptions, GenerationResult } from '../generation/generation.types';

/**
 * What the demos module needs from generation: one call from an address to steps. Injected through
 * AppDeps so that tests run a real, deterministic generator and the job code stays the same.
 */
export type GenerateDemo = (options: GenerationOptions) => Promise<GenerationResult>;

/** Stands in until a generator is wired: every generation fails with a clear reason. */
export const unavailableGenerator: GenerateDemo = async () => {
  throw new Error('Demo generation is not available in this build');
};
