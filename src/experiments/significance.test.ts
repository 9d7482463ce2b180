import { describe, expect, it } from 'vitest';
import { analyse, normalCdf, twoProportionZTest } from './significance';
import { pickArm } from './experiment-serving';

describe('normalCdf', () => {
  it('matches the standard normal table (reference values from erfc, Python math)', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.96)).toBeCloseTo(0.9750021048517795, 6);
    expect(normalCdf(3)).toBeCloseTo(0.9986501019683699, 6);
    expect(normalCdf(-0.5)).toBeCloseTo(0.3085375387259869, 6);
  });
});

describe('twoProportionZTest', () => {
  it('gives the known z and two-sided p-value of 200/1000 against 250/1000', () => {
    const { z, pValue } = twoProportionZTest({ n: 1000, x: 200 }, { n: 1000, x: 250 });
    expect(z).toBeCloseTo(2.677397763008329, 6);
    expect(pValue).toBeCloseTo(0.007419649261025693, 5);
  });
  it('gives the known figures of unequal groups, and a negative z when the second is lower', () => {
    const up = twoProportionZTest({ n: 200, x: 30 }, { n: 220, x: 45 });
    expect(up.z).toBeCloseTo(1.457704080316287, 6);
    expect(up.pValue).toBeCloseTo(0.1449221267940619, 5);
    expect(twoProportionZTest({ n: 220, x: 45 }, { n: 200, x: 30 }).z).toBeCloseTo(-1.457704080316287, 6);
  });
  it('sees no evidence in equal rates, in no variation and in empty groups', () => {
    expect(twoProportionZTest({ n: 100, x: 50 }, { n: 100, x: 50 })).toEqual({ z: 0, pValue: 1 });
    expect(twoProportionZTest({ n: 100, x: 0 }, { n: 100, x: 0 })).toEqual({ z: 0, pValue: 1 });
    expect(twoProportionZTest({ n: 0, x: 0 }, { n: 10, x: 5 })).toEqual({ z: 0, pValue: 1 });
  });
});

describe('analyse', () => {
  it('refuses a verdict below the minimum sample, however large the difference', () => {
    const result = analyse([
      { id: 'a', n: 99, x: 10 },
      { id: 'b', n: 99, x: 90 },
    ]);
    expect(result.verdict).toBe('too_small');
    expect(result.winnerArmId).toBeNull();
    expect(result.leaderArmId).toBe('b');
    expect(result.comparisons[0]!.significant).toBe(true);
  });
  it('refuses a verdict when an arm has fewer than five successes', () => {
    expect(analyse([{ id: 'a', n: 500, x: 4 }, { id: 'b', n: 500, x: 60 }]).verdict).toBe('too_small');
  });
  it('calls the better arm the winner when its difference is significant', () => {
    const result = analyse([{ id: 'a', n: 1000, x: 200 }, { id: 'b', n: 1000, x: 250 }]);
    expect(result).toMatchObject({ verdict: 'winner', winnerArmId: 'b', correctedAlpha: 0.05 });
    expect(result.method).toMatch(/two-proportion z-test/i);
  });
  it('calls the first arm the winner when it beats every other significantly', () => {
    expect(analyse([{ id: 'a', n: 1000, x: 250 }, { id: 'b', n: 1000, x: 200 }]).winnerArmId).toBe('a');
  });
  it('corrects α for several arms (Bonferroni): p = 0.0074 passes α = 0.05 but not 0.05/3', () => {
    const result = analyse([
      { id: 'a', n: 1000, x: 200 },
      { id: 'b', n: 1000, x: 250 },
      { id: 'c', n: 1000, x: 200 },
      { id: 'd', n: 1000, x: 205 },
    ], { alpha: 0.02 });
    expect(result.correctedAlpha).toBeCloseTo(0.02 / 3, 10);
    expect(result.comparisons[0]!.significant).toBe(false);
    expect(result.verdict).toBe('no_difference');
  });
});

describe('pickArm', () => {
  const arms = [{ id: 'a', weight: 1 }, { id: 'b', weight: 3 }];
  it('gives a key the same arm every time, and splits keys by weight', () => {
    expect(pickArm('exp', 'viewer-1', arms)).toBe(pickArm('exp', 'viewer-1', arms));
    const counts = { a: 0, b: 0 } as Record<string, number>;
    for (let i = 0; i < 4000; i++) counts[pickArm('exp', `viewer-${i}`, arms)!]!++;
    // Binomial(4000, 0.25): sd ≈ 27; 6 sd either side.
    expect(counts.a).toBeGreaterThan(1000 - 165);
    expect(counts.a).toBeLessThan(1000 + 165);
  });
  it('answers nothing without weight', () => {
    expect(pickArm('exp', 'k', [])).toBeUndefined();
  });
});
