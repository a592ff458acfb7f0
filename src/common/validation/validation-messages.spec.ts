import { describe, expect, it } from '@jest/globals';
import { defineReason, mainReasons, reason, translateReason } from './validation-messages';

describe('mainReasons', () => {
  const told = (reasons: string[]) => mainReasons(reasons).map((r) => translateReason(r, 'en'));

  it('does not tell a value of the wrong kind its bounds', () => {
    expect(told([reason('integer'), reason('min', 1), reason('max', 100)])).toEqual(['must be an integer']);
    expect(told([reason('max', 90), reason('number'), reason('min', -90)])).toEqual(['must be a number']);
    expect(told([reason('list_of_ids'), reason('required')])).toEqual([
      'must be a list of positive integer IDs',
      'is required',
    ]);
  });

  it('tells every other reason once', () => {
    expect(told([reason('min', 1), reason('max_length', 3), reason('min', 1)])).toEqual([
      'must be at least 1',
      'must be at most 3 characters long',
    ]);
    expect(told(['a plain message'])).toEqual(['a plain message']);
  });
});

describe('validation reasons modules define', () => {
  const key = defineReason('spec_odd', { en: 'must be odd, not {arg}', de: 'muss ungerade sein, nicht {arg}' });

  it('are translated like the service reasons', () => {
    expect(translateReason(reason(key, 4), 'en')).toBe('must be odd, not 4');
    expect(translateReason(reason(key, 4), 'de')).toBe('muss ungerade sein, nicht 4');
  });

  it('may not take a key the service or another module has', () => {
    expect(() => defineReason('required', { en: 'x', de: 'x' })).toThrow(/twice/);
    expect(() => defineReason('spec_odd', { en: 'x', de: 'x' })).toThrow(/twice/);
    expect(() => defineReason('a|b', { en: 'x', de: 'x' })).toThrow(/malformed/);
  });
});
