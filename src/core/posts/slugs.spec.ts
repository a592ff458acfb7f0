import { describe, expect, it } from '@jest/globals';
import { MAX_SLUG_LENGTH, pickAvailableSlug, slugify } from './slugs';

describe('slugify', () => {
  it.each([
    ['Summer Jazz Night', 'summer-jazz-night'],
    ['Café Müller – Lesung', 'cafe-muller-lesung'],
    ['  Rock & Roll!!  ', 'rock-roll'],
    ['Łódź Straße', 'lodz-strasse'],
    ['Концерт', 'koncert'],
    ['2025/26 Season', '2025-26-season'],
    ['already-a-slug', 'already-a-slug'],
    ['UPPER case', 'upper-case'],
  ])('%s → %s', (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });

  it('returns an empty string when nothing usable is left', () => {
    expect(slugify('!!! ???')).toBe('');
  });

  it('leaves room for a numeric suffix within the column', () => {
    const slug = slugify('a'.repeat(500));
    expect(slug.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH - 10);
    expect(slug.endsWith('-')).toBe(false);
  });
});

describe('pickAvailableSlug', () => {
  it('keeps the base when it is free', () => {
    expect(pickAvailableSlug('gig', [])).toBe('gig');
    expect(pickAvailableSlug('gig', ['gig-2'])).toBe('gig');
  });

  it('appends -2, -3… on collision, skipping taken suffixes', () => {
    expect(pickAvailableSlug('gig', ['gig'])).toBe('gig-2');
    expect(pickAvailableSlug('gig', ['gig', 'gig-2', 'gig-3'])).toBe('gig-4');
    expect(pickAvailableSlug('gig', ['gig', 'gig-3'])).toBe('gig-2');
  });
});
