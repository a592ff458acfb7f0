import { describe, expect, it } from '@jest/globals';
import { displayedValue, validateEnvironment } from './env.schema';

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

  it("names a database URL's bad parameter, in the primary's URL and a replica's, without the password", () => {
    let message = '';
    try {
      validateEnvironment({
        DATABASE_URL: 'mysql://cal:s3cret@db/cal?sslmode=require',
        DATABASE_READ_URLS: 'mysql://cal@replica/cal?ssl-mode=sometimes',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(
      'DATABASE_URL="mysql://cal:[redacted]@db/cal?sslmode=require": unknown parameter "sslmode"',
    );
    expect(message).toMatch(
      /DATABASE_READ_URLS=.*ssl-mode must be one of DISABLED, REQUIRED, VERIFY_CA, VERIFY_IDENTITY/,
    );
    expect(message).not.toContain('s3cret');
    expect(() => validateEnvironment({ DATABASE_URL: 'mysql://cal@db/cal?ssl-ca=/nonexistent/ca.pem' })).toThrow(
      'the ssl-ca file /nonexistent/ca.pem cannot be read (ENOENT)',
    );
    expect(validateEnvironment({ DATABASE_URL: 'mysql://cal@db/cal?ssl-mode=required' }).DATABASE_URL).toBe(
      'mysql://cal@db/cal?ssl-mode=required',
    );
  });
});

describe('configuration errors never show secrets', () => {
  it('hides secret settings and URL passwords, and still names the setting', () => {
    expect(displayedValue('CAL_ADMIN_PASSWORD', 'hunter2')).toBe('[redacted]');
    expect(displayedValue('METRICS_TOKEN', 'abc')).toBe('[redacted]');
    expect(displayedValue('DATABASE_URL', 'mysql://cal:s3cret@db:3306/cal')).toBe(
      '"mysql://cal:[redacted]@db:3306/cal"',
    );
    expect(displayedValue('PORT', 'eighty')).toBe('"eighty"');
  });

  it('does not echo a bad admin password or a database password in the thrown message', () => {
    let message = '';
    try {
      validateEnvironment({
        DATABASE_URL: 'postgres://u:s3cret@h/db',
        CAL_ADMIN_LOGIN: 'admin',
        CAL_ADMIN_PASSWORD: 'short',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/DATABASE_URL=/);
    expect(message).not.toContain('s3cret');
    expect(message).not.toContain('short');
  });
});
