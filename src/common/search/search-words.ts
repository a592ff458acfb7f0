/** Longest word kept, in code points: the index column's length (longer words are cut, so still found by prefix). */
export const MAX_WORD_LENGTH = 64;

/** The entities sanitize-html writes into stored HTML; anything else was decoded when the HTML was stored. */
const ESCAPES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/**
 * Text as the word index sees it: decomposed, accents dropped, lower case. Done in JS, not by a collation,
 * so SQLite and MySQL compare the same strings (the index column compares bytes on both).
 */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** Words of `text`, folded: runs of letters and digits; everything else separates words. */
export function wordsOf(text: string): string[] {
  const words = foldForSearch(text).match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.map((word) =>
    word.length > MAX_WORD_LENGTH ? Array.from(word).slice(0, MAX_WORD_LENGTH).join('') : word,
  );
}

/** Plain text of stored (sanitised) HTML: tags separate words, the sanitiser's escapes are undone. */
export function textOfHtml(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_m, name: string) => ESCAPES[name]);
}

/** The distinct words of an event's title and of its excerpt and description, as the index stores them. */
export interface IndexedWords {
  word: string;
  inTitle: boolean;
  inBody: boolean;
}

export function indexedWordsOf(title: string, bodies: string[]): IndexedWords[] {
  const byWord = new Map<string, IndexedWords>();
  const add = (word: string, field: 'inTitle' | 'inBody') => {
    const entry = byWord.get(word) ?? { word, inTitle: false, inBody: false };
    entry[field] = true;
    byWord.set(word, entry);
  };
  for (const word of wordsOf(textOfHtml(title))) add(word, 'inTitle');
  for (const body of bodies) for (const word of wordsOf(textOfHtml(body))) add(word, 'inBody');
  return [...byWord.values()].sort((a, b) => (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
}

/**
 * The index range of words starting with `prefix`: `from ≤ word < to` in code-point order, which is the
 * byte order of UTF-8 that both databases compare the column in.
 */
export function prefixRange(prefix: string): { from: string; to: string } {
  const points = Array.from(prefix);
  const last = points.pop()!;
  const next = last.codePointAt(0)! + 1;
  // Skip the surrogate block: no string holds those code points alone.
  return { from: prefix, to: points.join('') + String.fromCodePoint(next === 0xd800 ? 0xe000 : next) };
}
