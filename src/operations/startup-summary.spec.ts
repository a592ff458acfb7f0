import { describe, expect, it } from '@jest/globals';
import { describeDatabase } from './startup-summary';

describe('the start-up summary names the database, never its credentials', () => {
  it('gives host, port, socket and TLS mode of a MySQL URL', () => {
    expect(describeDatabase('mysql://cal:s3cret@db.internal/cal?ssl-mode=VERIFY_IDENTITY')).toEqual({
      kind: 'mysql',
      host: 'db.internal',
      port: 3306,
      database: 'cal',
      tls: 'VERIFY_IDENTITY',
    });
    expect(describeDatabase('mariadb://cal@localhost:3307/cal?socket=/run/mysqld/mysqld.sock')).toEqual({
      kind: 'mysql',
      host: 'localhost',
      port: 3307,
      socket: '/run/mysqld/mysqld.sock',
      database: 'cal',
      tls: 'DISABLED',
    });
  });
});
