// The significance of an A/B test: a two-proportion z-test of each arm against the first, pure and unit-tested.

/** Named in every answer, so a reader knows what the figure is. */
export const SIGNIFICANCE_METHOD =
  'Two-proportion z-test (pooled standard error, two-sided) of each arm against the first arm, ' +
  'Bonferroni-corrected for the number of comparisons';

/** The level a difference must reach, before the correction for several arms. */
export const ALPHA = 0.05;
/** No verdict below this many views in any arm. */
export const MIN_VIEWS_PER_ARM = 100;
/** The normal approximation needs a few successes and failures in each arm (n·p ≥ 5 and n·(1−p) ≥ 5). */
export const MIN_OUTCOMES = 5;

/**
 * The standard normal cumulative distribution Φ(x), through erfc (W. H. Press et al., Numerical Recipes,
 * erfcc: a Chebyshev fit with a fractional error below 1.2·10⁻⁷ everywhere).
 */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * z);
  const erfc =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}

export interface Proportion {
  /** Trials (views). */
  n: number;
  /** Successes among them (completions, conversions, clicks). */
  x: number;
}

/**
 * Two-proportion z-test of `b` against `a`: z = (p_b − p_a) / √(p(1−p)(1/n_a + 1/n_b)) with p the pooled
 * proportion, and its two-sided p-value 2·(1 − Φ(|z|)). No variation at all (p = 0 or 1) is no evidence:
 * z = 0, p-value 1.
 *
 * @example
 * twoProportionZTest({ n: 1000, x: 200 }, { n: 1000, x: 250 }); // { z: 2.6774, pValue: 0.00742 }
 */
export function twoProportionZTest(a: Proportion, b: Proportion): { z: number; pValue: number } {
  if (a.n === 0 || b.n === 0) return { z: 0, pValue: 1 };
  const pooled = (a.x + b.x) / (a.n + b.n);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.n + 1 / b.n));
  if (se === 0) return { z: 0, pValue: 1 };
  const z = (b.x / b.n - a.x / a.n) / se;
  return { z, pValue: Math.min(1, 2 * (1 - normalCdf(Math.abs(z)))) };
}

export interface ArmOutcome extends Proportion {
  id: string;
}

export interface Comparison {
  armId: string;
  /** This arm's rate minus the first arm's. */
  difference: number;
  z: number;
  pValue: number;
  significant: boolean;
}

export type Verdict = 'too_small' | 'no_difference' | 'winner';

export interface Significance {
  method: string;
  alpha: number;
  /** α divided by the number of comparisons (arms − 1). */
  correctedAlpha: number;
  minViewsPerArm: number;
  /** Each arm against the first (the first has none). */
  comparisons: Comparison[];
  verdict: Verdict;
  /** Set only when the verdict is `winner`. */
  winnerArmId: string | null;
  /** The arm with the highest rate so far, whatever the evidence (null without views). */
  leaderArmId: string | null;
}

/**
 * The verdict over all arms: `too_small` while any arm has fewer than MIN_VIEWS_PER_ARM views or fewer than
 * MIN_OUTCOMES successes or failures (the z-test's normal approximation would not hold); `winner` when an
 * arm beats the first significantly (the best such arm), or the first beats every other significantly;
 * `no_difference` otherwise.
 */
export function analyse(arms: readonly ArmOutcome[], options: { alpha?: number; minViews?: number } = {}): Significance {
  const alpha = options.alpha ?? ALPHA;
  const minViews = options.minViews ?? MIN_VIEWS_PER_ARM;
  const correctedAlpha = arms.length > 1 ? alpha / (arms.length - 1) : alpha;
  const rate = (a: Proportion) => (a.n > 0 ? a.x / a.n : 0);
  const [first, ...others] = arms;
  const comparisons = first
    ? others.map((arm) => {
        const { z, pValue } = twoProportionZTest(first, arm);
        return { armId: arm.id, difference: rate(arm) - rate(first), z, pValue, significant: pValue < correctedAlpha };
      })
    : [];
  const leader = arms.filter((a) => a.n > 0).reduce<ArmOutcome | null>((best, a) => (!best || rate(a) > rate(best) ? a : best), null);
  const base = { method: SIGNIFICANCE_METHOD, alpha, correctedAlpha, minViewsPerArm: minViews, comparisons, leaderArmId: leader?.id ?? null };
  const enough = arms.length >= 2 && arms.every((a) => a.n >= minViews && a.x >= MIN_OUTCOMES && a.n - a.x >= MIN_OUTCOMES);
  if (!enough) return { ...base, verdict: 'too_small', winnerArmId: null };
  const better = comparisons.filter((c) => c.significant && c.difference > 0).sort((a, b) => b.difference - a.difference);
  if (better[0]) return { ...base, verdict: 'winner', winnerArmId: better[0].armId };
  if (first && comparisons.every((c) => c.significant && c.difference < 0)) return { ...base, verdict: 'winner', winnerArmId: first.id };
  return { ...base, verdict: 'no_difference', winnerArmId: null };
}
