import { type RedactionsDeps, redactStep } from './redact-step';

/**
 * Blurring parts of a step so that the stored screenshot and snapshot no longer hold them: new assets
 * replace the old ones everywhere they are named (the step, the thumbnail, published versions), and the
 * old ones are deleted in the same transaction (redact-step.ts; the new bytes: redacted-assets.ts).
 *
 * @example
 * ```ts
 * const redactions = createRedactions({ ...kernel, redactHtml });
 * const step = await redactions.redact(auth, demoId, stepId, { regions: [{ x: 0.1, y: 0.1, width: 0.2, height: 0.05 }], style: 'blur' }, actor);
 * ```
 */
export function createRedactions(deps: RedactionsDeps) {
  return { redact: redactStep.bind(null, deps) };
}

export type RedactionsService = ReturnType<typeof createRedactions>;
