import { describe, expect, it } from '@jest/globals';
import { mainReasons, reason, translateReason } from './validation-messages';

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
