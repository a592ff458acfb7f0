import { describe, expect, it } from '@jest/globals';
import { decideStatus, effectiveStatus, isPublic } from './post-status';

const NOW = '2026-06-01 12:00:00';
const PAST = '2026-05-01 12:00:00';
const FUTURE = '2026-07-01 12:00:00';

describe('decideStatus', () => {
  describe('for writers who may publish', () => {
    it('publishes by default on create', () => {
      expect(decideStatus({ canPublish: true, dateUtc: PAST, nowUtc: NOW })).toBe('publish');
    });

    it('stores a publish dated in the future as future', () => {
      expect(decideStatus({ requested: 'publish', canPublish: true, dateUtc: FUTURE, nowUtc: NOW })).toBe('future');
    });

    it('stores a future dated in the past as publish', () => {
      expect(decideStatus({ requested: 'future', canPublish: true, dateUtc: PAST, nowUtc: NOW })).toBe('publish');
    });

    it('gives what was asked for otherwise', () => {
      for (const s of ['draft', 'pending', 'private'] as const) {
        expect(decideStatus({ requested: s, canPublish: true, dateUtc: FUTURE, nowUtc: NOW })).toBe(s);
      }
    });

    it('keeps the stored status on an update that does not name one', () => {
      expect(decideStatus({ current: 'draft', canPublish: true, dateUtc: PAST, nowUtc: NOW })).toBe('draft');
      expect(decideStatus({ current: 'publish', canPublish: true, dateUtc: FUTURE, nowUtc: NOW })).toBe('future');
    });
  });

  describe('for contributors', () => {
    it('turns publish and future into pending', () => {
      expect(decideStatus({ requested: 'publish', canPublish: false, dateUtc: PAST, nowUtc: NOW })).toBe('pending');
      expect(decideStatus({ requested: 'future', canPublish: false, dateUtc: FUTURE, nowUtc: NOW })).toBe('pending');
    });

    it('keeps pending and makes everything else a draft', () => {
      expect(decideStatus({ requested: 'pending', canPublish: false, dateUtc: PAST, nowUtc: NOW })).toBe('pending');
      expect(decideStatus({ requested: 'private', canPublish: false, dateUtc: PAST, nowUtc: NOW })).toBe('draft');
      expect(decideStatus({ canPublish: false, dateUtc: PAST, nowUtc: NOW })).toBe('draft');
    });
  });
});

describe('effectiveStatus and isPublic', () => {
  it('treats a future post whose date has come as published', () => {
    expect(effectiveStatus('future', PAST, NOW)).toBe('publish');
    expect(isPublic('future', PAST, NOW)).toBe(true);
    expect(isPublic('future', NOW, NOW)).toBe(true);
  });

  it('keeps a future post hidden until its date', () => {
    expect(effectiveStatus('future', FUTURE, NOW)).toBe('future');
    expect(isPublic('future', FUTURE, NOW)).toBe(false);
  });

  it('shows only published posts publicly', () => {
    expect(isPublic('publish', FUTURE, NOW)).toBe(true);
    for (const s of ['draft', 'pending', 'private', 'trash'] as const) expect(isPublic(s, PAST, NOW)).toBe(false);
  });
});
