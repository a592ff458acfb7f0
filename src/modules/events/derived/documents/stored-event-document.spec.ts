import { describe, expect, it } from '@jest/globals';
import { termCountsOf } from './stored-event-document';

describe('termCountsOf', () => {
  it('reads every whole id:count pair', () => {
    expect([...termCountsOf('12:3;,7:0;,1045:120;')]).toEqual([
      [12, 3],
      [7, 0],
      [1045, 120],
    ]);
  });

  it('reads the bytes a driver may hand back for text', () => {
    expect([...termCountsOf(Buffer.from('5:2;'))]).toEqual([[5, 2]]);
  });

  it('leaves out a pair that MySQL cut at group_concat_max_len, whatever its length', () => {
    for (const cut of ['12:3;,7:', '12:3;,7:4', '12:3;,7', '12:3;,']) {
      expect([...termCountsOf(cut)]).toEqual([[12, 3]]);
    }
  });

  it('reads nothing for an event without terms', () => {
    expect(termCountsOf(null).size).toBe(0);
    expect(termCountsOf(undefined).size).toBe(0);
  });
});
