import { describe, expect, it } from '@jest/globals';
import { QueryFailedError } from 'typeorm';
import { redactUrl, serializeError } from './logger';

describe('redactUrl', () => {
  it.each([
    ['/e/1?password=abc&x=1', '/e/1?password=[redacted]&x=1'],
    ['/e/1?x=1&Password=abc', '/e/1?x=1&Password=[redacted]'],
    ['/e/1?password[]=abc', '/e/1?password[]=[redacted]'],
    ['/e/1?token=t#frag', '/e/1?token=[redacted]#frag'],
    ['/e/1?passwords=1&mypassword=2', '/e/1?passwords=1&mypassword=2'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('serializeError', () => {
  it('keeps a database error’s code and statement but not its bound values or stack', () => {
    const driverError = Object.assign(new Error("Duplicate entry 'x'"), { code: 'ER_DUP_ENTRY', errno: 1062 });
    const error = new QueryFailedError('INSERT INTO posts (title) VALUES (?)', ['secret title'], driverError);
    const logged = serializeError(error);
    expect(logged).toMatchObject({ code: 'ER_DUP_ENTRY', errno: 1062, query: 'INSERT INTO posts (title) VALUES (?)' });
    expect(JSON.stringify(logged)).not.toContain('secret title');
    expect(logged).not.toHaveProperty('stack');
  });

  it('keeps the stack of a programming error', () => {
    const logged = serializeError(new TypeError('x is undefined'));
    expect(logged).toMatchObject({ type: 'TypeError', message: 'x is undefined' });
    expect(String(logged.stack)).toContain('TypeError');
  });
});
