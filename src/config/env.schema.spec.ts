import { describe, expect, it } from '@jest/globals';
import { validateEnvironment } from './env.schema';

describe('validateEnvironment', () => {
  it('gives working defaults for an empty environment', () => {
    const env = validateEnvironment({});
    expect(env).toMatchObject({
      PORT: 3000,
      DATABASE_URL: 'sqlite:./data/calendar.sqlite',
      SITE_TIMEZONE: 'UTC',
      API_PREFIX: '',
      LOG_LEVEL: 'info',
      MAX_PER_PAGE: 50,
      DB_MIGRATIONS_RUN: true,
    });
    expect(env.PUBLIC_URL).toBeUndefined();
  });

  it('reads typed values from strings', () => {
    const env = validateEnvironment({
      PORT: '8080',
      DB_MIGRATIONS_RUN: 'false',
      SITE_TIMEZONE: 'Europe/Berlin',
      API_PREFIX: '/api',
      DATABASE_URL: 'mysql://u:p@db:3306/cal',
    });
    expect(env).toMatchObject({ PORT: 8080, DB_MIGRATIONS_RUN: false, SITE_TIMEZONE: 'Europe/Berlin' });
  });

  it('names every bad variable at once', () => {
    let message = '';
    try {
      validateEnvironment({ PORT: 'eighty', SITE_TIMEZONE: 'Mars/Olympus', MAX_PER_PAGE: '500', API_PREFIX: 'api/' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^Invalid configuration:/);
    for (const name of ['PORT', 'SITE_TIMEZONE', 'MAX_PER_PAGE', 'API_PREFIX']) expect(message).toContain(name);
  });

  it('refuses a database URL it cannot use', () => {
    expect(() => validateEnvironment({ DATABASE_URL: 'postgres://x/y' })).toThrow(/DATABASE_URL/);
  });
});
