import { describe, expect, it } from '@jest/globals';
import { foldForSearch, indexedWordsOf, MAX_WORD_LENGTH, prefixRange, textOfHtml, wordsOf } from './search-words';

describe('search words', () => {
  it('folds case and accents, keeping letters of every script', () => {
    expect(foldForSearch('Crème BRÛLÉE')).toBe('creme brulee');
    expect(wordsOf('Ünïcode: Καφές, 東京 2030!')).toEqual(['unicode', 'καφες', '東京', '2030']);
  });

  it('splits on anything that is not a letter or digit', () => {
    expect(wordsOf("open-air jazz's e-mail")).toEqual(['open', 'air', 'jazz', 's', 'e', 'mail']);
    expect(wordsOf('  !! -- ')).toEqual([]);
  });

  it('cuts words longer than the index column, by code point', () => {
    const long = '𝒜'.repeat(MAX_WORD_LENGTH + 5);
    const [word] = wordsOf(`a${long}`);
    expect(Array.from(word)).toHaveLength(MAX_WORD_LENGTH);
  });

  it('reads stored HTML as text: tags separate words, the sanitiser escapes are undone', () => {
    expect(textOfHtml('<p>Rock&amp;Roll</p><p>tonight</p>')).toBe(' Rock&Roll  tonight ');
    expect(wordsOf(textOfHtml('<p>Rock&amp;Roll</p><p>tonight</p>'))).toEqual(['rock', 'roll', 'tonight']);
  });

  it('lists each word once, with the fields it appears in, in word order', () => {
    expect(indexedWordsOf('Jazz Night', ['<p>night jazz and blues</p>', 'Blues'])).toEqual([
      { word: 'and', inTitle: false, inBody: true },
      { word: 'blues', inTitle: false, inBody: true },
      { word: 'jazz', inTitle: true, inBody: true },
      { word: 'night', inTitle: true, inBody: true },
    ]);
  });

  it('gives the code-point range of words starting with a prefix', () => {
    expect(prefixRange('jazz')).toEqual({ from: 'jazz', to: 'jaz{' });
    expect(prefixRange('caf\u{d7ff}')).toEqual({ from: 'caf\u{d7ff}', to: 'caf\u{e000}' });
    const { from, to } = prefixRange('straß');
    for (const word of ['straß', 'straße', 'straßen']) expect(word >= from && word < to).toBe(true);
    expect('strasse' >= from && 'strasse' < to).toBe(false);
  });
});
