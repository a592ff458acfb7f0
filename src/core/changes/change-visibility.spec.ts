import { describe, expect, it } from '@jest/globals';
import { toAuthUser } from '../../auth/auth-user';
import { mayLearnOf } from './change-visibility';

const anonymous = null;
const subscriber = toAuthUser({ id: 5, login: 's', role: 'subscriber' });
const author = toAuthUser({ id: 6, login: 'a', role: 'author' });
const editor = toAuthUser({ id: 7, login: 'e', role: 'editor' });
const hidden = { publicBefore: false, publicAfter: false, authorId: 6 };

describe('mayLearnOf (tombstones)', () => {
  it('tells everyone of records that were public before or after the change', () => {
    for (const user of [anonymous, subscriber, author, editor]) {
      expect(mayLearnOf(user, { ...hidden, publicBefore: true })).toBe(true);
      expect(mayLearnOf(user, { ...hidden, publicAfter: true })).toBe(true);
    }
  });

  it('never tells anonymous callers or subscribers of a record that was never public', () => {
    expect(mayLearnOf(anonymous, hidden)).toBe(false);
    expect(mayLearnOf(subscriber, hidden)).toBe(false);
  });

  it('tells authors of their own drafts only, editors of every one', () => {
    expect(mayLearnOf(author, hidden)).toBe(true);
    expect(mayLearnOf(author, { ...hidden, authorId: 99 })).toBe(false);
    expect(mayLearnOf(editor, { ...hidden, authorId: 99 })).toBe(true);
  });
});
