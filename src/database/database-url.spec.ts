import { describe, expect, it } from '@jest/globals';
import { resolve } from 'node:path';
import { parseDatabaseUrl } from './database-url';

describe('parseDatabaseUrl', () => {
  it('reads SQLite paths relative to the working directory', () => {
    expect(parseDatabaseUrl('sqlite:./data/x.sqlite')).toEqual({ kind: 'sqlite', file: resolve('data/x.sqlite') });
    expect(parseDatabaseUrl('sqlite:///var/lib/cal.sqlite')).toEqual({ kind: 'sqlite', file: '/var/lib/cal.sqlite' });
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ kind: 'sqlite', file: ':memory:' });
  });

  it('reads MySQL and MariaDB URLs', () => {
    expect(parseDatabaseUrl('mysql://u:p@h:3306/cal')).toEqual({
      kind: 'mysql',
      url: 'mysql://u:p@h:3306/cal',
      database: 'cal',
      connection: { tls: { mode: 'DISABLED' } },
    });
    expect(parseDatabaseUrl('mariadb://u@h/cal').kind).toBe('mysql');
  });

  it('reads the socket and TLS parameters and leaves them out of the URL', () => {
    const target = parseDatabaseUrl(
      'mysql://u:p%40ss@localhost/cal?socket=/run/mysqld/mysqld.sock&ssl-mode=verify_identity&ssl-ca=certs/ca.pem',
    );
    expect(target).toEqual({
      kind: 'mysql',
      url: 'mysql://u:p%40ss@localhost/cal',
      database: 'cal',
      connection: {
        socket: '/run/mysqld/mysqld.sock',
        tls: { mode: 'VERIFY_IDENTITY', caFile: resolve('certs/ca.pem') },
      },
    });
  });

  it('checks the certificate against a CA given without a mode, as MySQL clients do', () => {
    const target = parseDatabaseUrl('mysql://u@h/cal?ssl-ca=/etc/cal/ca.pem');
    expect(target.kind === 'mysql' && target.connection.tls).toEqual({ mode: 'VERIFY_CA', caFile: '/etc/cal/ca.pem' });
    const required = parseDatabaseUrl('mysql://u@h/cal?ssl-mode=REQUIRED');
    expect(required.kind === 'mysql' && required.connection.tls).toEqual({ mode: 'REQUIRED' });
  });

  it.each([
    ['mysql://u@h/cal?sslmode=require', /unknown parameter "sslmode" \(known: socket, ssl-mode, ssl-ca\)/],
    ['mysql://u@h/cal?ssl-mode=PREFERRED', /ssl-mode must be one of DISABLED, REQUIRED, VERIFY_CA, VERIFY_IDENTITY/],
    [
      'mysql://u@h/cal?ssl-mode=REQUIRED&ssl-ca=/ca.pem',
      /ssl-ca is only used with ssl-mode=VERIFY_CA or VERIFY_IDENTITY/,
    ],
    ['mysql://u@h/cal?ssl-mode=DISABLED&ssl-ca=/ca.pem', /ssl-ca is only used/],
    ['mysql://u@h/cal?socket=', /parameter "socket" is empty/],
    ['mysql://u@h/cal?socket=run/mysqld.sock', /socket must be an absolute path/],
    ['mysql://u@h/cal?ssl-mode=REQUIRED&ssl-mode=DISABLED', /parameter "ssl-mode" is given twice/],
    ['mysql://u@10.0.0.5/cal?ssl-mode=VERIFY_IDENTITY', /VERIFY_IDENTITY needs the host name the certificate names/],
    ['mysql://u@[::1]:3306/cal?ssl-mode=VERIFY_IDENTITY', /VERIFY_IDENTITY needs the host name/],
  ])('refuses %s', (url, message) => {
    expect(() => parseDatabaseUrl(url)).toThrow(message);
  });

  it('refuses a MySQL URL without a database', () => {
    expect(() => parseDatabaseUrl('mysql://u@h:3306/')).toThrow(/database/);
  });
});
