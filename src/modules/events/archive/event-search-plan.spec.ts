import { describe, expect, it } from '@jest/globals';
import { contentVisibleCondition } from '../../../core/posts/post-visibility';
import { tokenMatch } from './event-search-filter';
import { searchWordRoute } from './event-search-plan';
import type { EventArchiveFilter } from './event-archive-filter';

const search = (token: string): EventArchiveFilter => ({
  scope: { statuses: ['publish'] },
  nowUtc: '2030-03-01 12:00:00',
  window: { startFrom: '2030-03-01 00:00:00', endUntil: '2030-12-31 23:59:59', effective: {} },
  tokens: [token],
  termFilters: [],
  linkFilters: [],
  contentVisible: contentVisibleCondition(null, 'p'),
  moduleConditions: [],
});

describe('event search: how tokens match and which searches the word index answers alone', () => {
  it('reads a token as one word, a phrase, or nothing to match', () => {
    expect(tokenMatch('Jazz')).toEqual({ kind: 'word', word: 'jazz' });
    expect(tokenMatch('Café')).toEqual({ kind: 'word', word: 'cafe' });
    expect(tokenMatch('open air')).toEqual({ kind: 'phrase', text: 'open air' });
    expect(tokenMatch('e-mail')).toEqual({ kind: 'phrase', text: 'e-mail' });
    expect(tokenMatch('--')).toEqual({ kind: 'none' });
  });

  it('answers the public one-word search of a plain window from the index', () => {
    expect(searchWordRoute(search('Jazz'))).toEqual({
      window: { startFrom: '2030-03-01 00:00:00', endUntil: '2030-12-31 23:59:59' },
      prefix: { from: 'jazz', to: 'jaz{' },
      aligned: true,
    });
  });

  it('says whether the window is whole UTC days, which the day counts alone cover', () => {
    const strict = { startFrom: '2030-03-01 18:00:00', endUntil: '2030-12-31 23:59:59', effective: {} };
    expect(searchWordRoute({ ...search('jazz'), window: strict })?.aligned).toBe(false);
  });

  it('leaves phrases, several tokens, other filters, other scopes and editors to the rows', () => {
    expect(searchWordRoute(search('open air'))).toBeUndefined();
    expect(searchWordRoute({ ...search('jazz'), tokens: ['jazz', 'night'] })).toBeUndefined();
    expect(searchWordRoute({ ...search('jazz'), termFilters: [[3]] })).toBeUndefined();
    expect(searchWordRoute({ ...search('jazz'), featured: true })).toBeUndefined();
    expect(searchWordRoute({ ...search('jazz'), scope: { statuses: ['publish', 'draft'] } })).toBeUndefined();
    // An editor reads protected descriptions; `public_match` leaves them out.
    expect(searchWordRoute({ ...search('jazz'), contentVisible: { sql: '1 = 1', params: {} } })).toBeUndefined();
    expect(searchWordRoute({ ...search('jazz'), window: undefined })).toBeUndefined();
  });
});
