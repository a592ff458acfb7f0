import { describe, expect, it } from '@jest/globals';
import { searchTokens } from './search-tokens';

describe('searchTokens', () => {
  it('splits words and keeps quoted phrases', () => {
    expect(searchTokens('jazz  "open air" Berlin')).toEqual(['jazz', 'open air', 'Berlin']);
  });

  it('drops empty quotes and blank input', () => {
    expect(searchTokens('"" ')).toEqual([]);
    expect(searchTokens('   ')).toEqual([]);
  });

  it('reads an unterminated quote as words', () => {
    expect(searchTokens('"open air')).toEqual(['"open', 'air']);
  });
});
