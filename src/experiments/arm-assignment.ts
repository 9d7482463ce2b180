// Which arm a viewer gets: a weighted pick from a hash of the experiment and a stable viewer key, so no cookie is needed to repeat it.
import { createHash } from 'node:crypto';

export interface WeightedArm {
  id: string;
  weight: number;
}

/**
 * The arm of `arms` (in their order) for `key` in experiment `salt`: the SHA-256 of both, read as a number
 * in [0, 1), falls in one arm's share of the total weight. The same key always gets the same arm while
 * the arms and weights stay; keys spread over the arms in proportion to their weights.
 *
 * @example
 * pickArm('exp_1', 'ana@acme.test', [{ id: 'a', weight: 1 }, { id: 'b', weight: 3 }]); // 'b' three times in four
 */
export function pickArm(salt: string, key: string, arms: readonly WeightedArm[]): string | undefined {
  const total = arms.reduce((sum, arm) => sum + arm.weight, 0);
  if (total <= 0) return undefined;
  // 48 bits: exact in a double, and far finer than any weight split.
  const point = (Number.parseInt(createHash('sha256').update(`${salt}\n${key}`).digest('hex').slice(0, 12), 16) / 2 ** 48) * total;
  let edge = 0;
  for (const arm of arms) {
    edge += arm.weight;
    if (point < edge) return arm.id;
  }
  return arms.at(-1)?.id;
}
