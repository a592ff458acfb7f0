import { describe, expect, it } from '@jest/globals';
import { formatMessage, resolveLanguage } from './language';

describe('resolveLanguage', () => {
  it.each([
    ['de', 'de'],
    ['DE', 'de'],
    ['de-AT', 'de'],
    ['de_ch', 'de'],
    ['en', 'en'],
    ['fr', 'en'],
    [undefined, 'en'],
  ])('%s → %s', (code, expected) => expect(resolveLanguage(code)).toBe(expected));
});

describe('formatMessage', () => {
  it('fills plain and localized placeholders and keeps unknown ones', () => {
    const label = { en: 'venue', de: 'Veranstaltungsort' };
    expect(formatMessage('{label} {id} {x}', 'de', { label, id: 5 })).toBe('Veranstaltungsort 5 {x}');
    expect(formatMessage('{label}', 'en', { label })).toBe('venue');
  });
});
