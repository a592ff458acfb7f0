import { describe, expect, it } from '@jest/globals';
import { foldLines as libraryFold } from 'ical-generator';
import { foldLines } from './fold-lines';

const unfold = (text: string) => text.replace(/\r\n /g, '');

describe('foldLines', () => {
  const samples = [
    'SUMMARY:short',
    `DESCRIPTION:${'a'.repeat(300)}`,
    `DESCRIPTION:${'Straße café ünïcødé '.repeat(20)}`,
    `SUMMARY:${'日本語のイベント'.repeat(15)}`,
    `SUMMARY:${'🎷🎺 jazz '.repeat(30)}`,
    `LOCATION:${'x'.repeat(74)}é`,
  ];

  it('keeps every line within 75 octets, never splits a character, and unfolds to the input', () => {
    for (const sample of samples) {
      const folded = foldLines(`${sample}\r\nURL:x`);
      for (const line of folded.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
      expect(folded).not.toContain('\uFFFD');
      expect(unfold(folded)).toBe(`${sample}\r\nURL:x`);
    }
  });

  it('needs no more lines than ical-generator’s own fold and carries the same text', () => {
    for (const sample of samples) {
      const ours = foldLines(sample)
        .split('\r\n')
        .map((l) => Buffer.byteLength(l));
      const theirs = libraryFold(sample)
        .split('\r\n')
        .map((l) => Buffer.byteLength(l));
      expect(ours.length).toBeLessThanOrEqual(theirs.length);
      expect(unfold(libraryFold(sample))).toBe(unfold(foldLines(sample)));
    }
  });
});
