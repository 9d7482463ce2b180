/**
 * Registers per sketch (one byte each): 4 KB a sketch.
 *
 * @example
 * ```ts
 * import { REGISTERS } from './hll';
 *
 * const empty = new Uint8Array(REGISTERS);
 * ```
 */
export const REGISTERS = 4096;
/**
 * The relative standard error of an estimate (≈ 0.016) at large counts.
 *
 * @example
 * ```ts
 * import { STANDARD_ERROR } from './hll';
 *
 * const margin = (estimate: number) => Math.round(estimate * 2 * STANDARD_ERROR); // ~95% interval
 * ```
 */
export const STANDARD_ERROR = 1.04 / Math.sqrt(REGISTERS);

/**
 * A new sketch with every register of `sketches` at its maximum.
 *
 * @example
 * ```ts
 * import { estimate, mergeSketches } from './hll';
 *
 * declare const days: Uint8Array[]; // one sketch per day, as stored
 * const viewersOverTheMonth = estimate(mergeSketches(days));
 * ```
 */
export function mergeSketches(sketches: Iterable<Uint8Array>): Uint8Array {
  const out = new Uint8Array(REGISTERS);
  for (const sketch of sketches) {
    for (let i = 0; i < REGISTERS; i++) {
      const r = sketch[i]!;
      if (r > out[i]!) out[i] = r;
    }
  }
  return out;
}

/**
 * The estimated number of distinct keys added to `sketch` (Flajolet et al., with linear counting).
 *
 * @example
 * ```ts
 * import { estimate, REGISTERS } from './hll';
 *
 * estimate(new Uint8Array(REGISTERS)); // 0
 * ```
 */
export function estimate(sketch: Uint8Array): number {
  let sum = 0;
  let zeros = 0;
  for (let i = 0; i < REGISTERS; i++) {
    const r = sketch[i]!;
    sum += 2 ** -r;
    if (r === 0) zeros++;
  }
  if (zeros === REGISTERS) return 0;
  const alpha = 0.7213 / (1 + 1.079 / REGISTERS);
  const raw = (alpha * REGISTERS * REGISTERS) / sum;
  // A 64-bit hash needs no large-range correction; small counts are better served by linear counting.
  if (raw <= 2.5 * REGISTERS && zeros > 0) return Math.round(REGISTERS * Math.log(REGISTERS / zeros));
  return Math.round(raw);
}
