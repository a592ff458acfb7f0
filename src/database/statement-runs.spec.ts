import { describe, expect, it } from '@jest/globals';
import { MAX_VALUES_PER_STATEMENT, statementRuns } from './statement-runs';

describe('statementRuns', () => {
  it('keeps every run within the values a statement may bind, and every row in order', () => {
    const rows = Array.from({ length: 4_321 }, (_, i) => i);
    const runs = statementRuns(rows, 7);
    for (const run of runs) expect(run.length * 7).toBeLessThanOrEqual(MAX_VALUES_PER_STATEMENT);
    expect(runs.flat()).toEqual(rows);
    expect(runs.slice(0, -1).every((run) => run.length === runs[0].length)).toBe(true);
  });

  it('puts a row wider than the budget in a run of its own, and makes no run of no rows', () => {
    expect(statementRuns(['a', 'b'], MAX_VALUES_PER_STATEMENT * 2)).toEqual([['a'], ['b']]);
    expect(statementRuns([], 3)).toEqual([]);
    expect(statementRuns([1, 2, 3], 0)).toEqual([[1, 2, 3]]);
  });
});
