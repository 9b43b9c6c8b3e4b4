import { describe, expect, it } from 'vitest';
import { medianRate } from '../../../../services/domain/median-rate.ts';

describe('median rate (pure)', () => {
  it('median by nearest rank: the rate at rank ceil(n/2) in ascending order, from per-rate counts', () => {
    expect(medianRate([[0.25, 1]])).toBe(0.25);
    // n = 4, rank 2: 0.25, 0.25 | 5, 18
    expect(
      medianRate([
        [18, 1],
        [0.25, 2],
        [5, 1],
      ]),
    ).toBe(0.25);
    // n = 5, rank 3
    expect(
      medianRate([
        [18, 1],
        [0.25, 2],
        [5, 2],
      ]),
    ).toBe(5);
    expect(
      medianRate([
        [3, 10],
        [1, 9],
      ]),
    ).toBe(3);
  });

  it('is 0 for no certificates with a rate', () => {
    expect(medianRate([])).toBe(0);
  });
});
