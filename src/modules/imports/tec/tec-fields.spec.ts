import { describe, expect, it } from '@jest/globals';
import { costOf, eventOf, idsOf, linkedRecordOf, plainText, termOf } from './tec-fields';

describe('TEC records as writes here', () => {
  it('reads the cost from cost_details, as entered, with its currency', () => {
    const details = (values: string[], symbol = '', position = '') => ({
      currency_symbol: symbol,
      currency_code: '',
      currency_position: position,
      values,
    });
    // TEC shows "10, 20, 30" as "$30"; its values keep all three ("10." as it stores them).
    expect(costOf(details(['10.', '20.', '30']), '$30')).toBe('10, 20, 30');
    expect(costOf(details(['20'], '€', 'prefix'), '€20')).toBe('€20');
    expect(costOf(details(['15'], '€', 'postfix'), '15€')).toBe('15€');
    expect(costOf(details(['free']), 'Free')).toBe('Free');
    expect(costOf(details(['25.50']), '$25.50')).toBe('25.50');
    // A cost without a number has no values here: its text is the cost.
    expect(costOf(details([]), 'Donation')).toBe('Donation');
    expect(costOf(details([]), '')).toBe('');
    expect(costOf(undefined, '$5')).toBe('$5');
  });

  it('decodes the plain text WordPress sends escaped, and leaves HTML members as HTML', () => {
    expect(plainText('Arts &amp; Culture')).toBe('Arts & Culture');
    expect(plainText('Rock &#8217;n&#8217; Roll')).toBe('Rock ’n’ Roll');
    expect(plainText(null)).toBe('');
    const venue = linkedRecordOf({
      id: 7,
      global_id: 'x?id=7',
      author: '1',
      venue: 'Caf&eacute; &amp; Bar',
      description: '<p>Tea &amp; cake</p>',
      city: 'K&ouml;ln',
      date_utc: '0000-00-00 00:00:00',
      show_map: null,
      image: { url: 'https://example.org/a.jpg', id: 3 },
    });
    expect(venue).toEqual({
      venue: 'Café & Bar',
      description: '<p>Tea &amp; cake</p>',
      city: 'Köln',
      image: 'https://example.org/a.jpg',
    });
  });

  it('reads terms with their parent, and links as source ids', () => {
    expect(termOf({ id: 6, name: 'Chamber &amp; Song', slug: 'chamber', description: '', parent: 5 })).toEqual({
      fields: { name: 'Chamber & Song', slug: 'chamber', description: '' },
      parent: 5,
    });
    expect(idsOf({ id: 7, venue: 'x' })).toEqual([7]);
    expect(idsOf([{ id: 14 }, { id: 15 }, { name: 'no id' }])).toEqual([14, 15]);
    expect(idsOf([])).toEqual([]);
  });

  it('writes a blanked (password-protected) event with what the list showed, and marks it protected', () => {
    const listed = {
      title: 'Chamber Recital #28',
      slug: 'chamber-recital-28',
      status: 'publish',
      date_utc: '2026-11-26 15:51:51',
      timezone: 'Europe/Berlin',
      start_date: '2026-11-10 18:45:00',
      end_date: '2026-11-10 19:45:00',
      all_day: null,
      description: '',
      show_map: null,
      featured: null,
      venue: [],
      categories: [],
    };
    const event = eventOf(listed, ['venue', 'categories']);
    expect(event.protectedInSource).toBe(true);
    expect(event.fields).toEqual({
      title: 'Chamber Recital #28',
      slug: 'chamber-recital-28',
      status: 'publish',
      date_utc: '2026-11-26 15:51:51',
      timezone: 'Europe/Berlin',
      start_date: '2026-11-10 18:45:00',
      end_date: '2026-11-10 19:45:00',
    });
    expect(event.links).toEqual({});
  });

  it('keeps the whole of an event this service shows an editor in full, protected all the same', () => {
    const shown = {
      title: 'Members only',
      slug: 'members-only',
      status: 'private',
      date_utc: '0000-00-00 00:00:00',
      start_date: '2031-01-01 10:00:00',
      end_date: '2031-01-01 11:00:00',
      timezone: 'UTC',
      all_day: false,
      description: '<p>Inside</p>',
      excerpt: '',
      cost_details: { currency_symbol: '$', currency_position: 'prefix', values: ['5'] },
      website: '',
      show_map: true,
      show_map_link: true,
      hide_from_listings: false,
      sticky: false,
      featured: true,
      password_protected: true,
      venue: { id: 9 },
    };
    const event = eventOf(shown, ['venue', 'speakers']);
    expect(event.protectedInSource).toBe(true);
    expect(event.fields).toMatchObject({ description: '<p>Inside</p>', cost: '$5', featured: true });
    expect(event.fields).not.toHaveProperty('date_utc');
    // `speakers` (a module's type here) is not in the source's event: its links here are left alone.
    expect(event.links).toEqual({ venue: [9] });
  });
});
