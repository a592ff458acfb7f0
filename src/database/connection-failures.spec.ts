import { describe, expect, it } from '@jest/globals';
import { connectionFailureHint, failureWithHint, mayConnectLater } from './connection-failures';

const driverError = (code: string, errno: number) => Object.assign(new Error(code), { code, errno });

describe('first-connection failures', () => {
  it('tries again only where waiting can help', () => {
    expect(mayConnectLater(driverError('ECONNREFUSED', -111))).toBe(true);
    expect(mayConnectLater(driverError('EAI_AGAIN', -3001))).toBe(true);
    expect(mayConnectLater(driverError('ER_CON_COUNT_ERROR', 1040))).toBe(true);
    expect(mayConnectLater(driverError('ER_BAD_DB_ERROR', 1049))).toBe(false);
    expect(mayConnectLater(driverError('ER_ACCESS_DENIED_ERROR', 1045))).toBe(false);
    expect(mayConnectLater(driverError('ENOTFOUND', -3008))).toBe(false);
    expect(mayConnectLater(driverError('SQLITE_CANTOPEN', 14))).toBe(false);
    expect(mayConnectLater(new Error('not a driver error'))).toBe(false);
  });

  it("names what to do by the server's number or, for Node's own errors, by their code", () => {
    expect(connectionFailureHint(driverError('ER_BAD_DB_ERROR', 1049))).toContain('CREATE DATABASE');
    expect(connectionFailureHint(driverError('ER_ACCESS_DENIED_ERROR', 1045))).toContain('password');
    expect(connectionFailureHint(driverError('ER_DBACCESS_DENIED_ERROR', 1044))).toContain('GRANT');
    expect(connectionFailureHint(driverError('ECONNREFUSED', -111))).toContain('is the server running');
    expect(connectionFailureHint(driverError('ENOTFOUND', -3008))).toContain('does not resolve');
    expect(connectionFailureHint(driverError('ER_PARSE_ERROR', 1064))).toBeUndefined();
  });

  it('puts the hint after the message, and reads any error-shaped value', () => {
    expect(failureWithHint(driverError('ER_BAD_DB_ERROR', 1049))).toMatch(/^ER_BAD_DB_ERROR: create the database/);
    expect(failureWithHint({ message: 'from another realm' })).toBe('from another realm');
    expect(failureWithHint('plain')).toBe('plain');
  });
});
