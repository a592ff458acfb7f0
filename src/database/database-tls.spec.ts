import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDataSourceOptions } from './data-source-options';
import { tlsOptions } from './database-tls';

describe('TLS and socket options for mysql2', () => {
  it('asks for what each ssl-mode promises', () => {
    expect(tlsOptions({ mode: 'DISABLED' })).toBeNull();
    expect(tlsOptions({ mode: 'REQUIRED' })).toEqual({ rejectUnauthorized: false, verifyIdentity: false });
    expect(tlsOptions({ mode: 'VERIFY_CA' })).toEqual({ rejectUnauthorized: true, verifyIdentity: false });
    expect(tlsOptions({ mode: 'VERIFY_IDENTITY' })).toEqual({ rejectUnauthorized: true, verifyIdentity: true });
  });

  it('reads the CA file, and names it when it cannot', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cal-tls-'));
    try {
      const file = join(dir, 'ca.pem');
      writeFileSync(file, '-----BEGIN CERTIFICATE-----\n');
      expect(tlsOptions({ mode: 'VERIFY_CA', caFile: file })?.ca).toBe('-----BEGIN CERTIFICATE-----\n');
      expect(() => tlsOptions({ mode: 'VERIFY_CA', caFile: join(dir, 'missing.pem') })).toThrow(
        `DATABASE_URL: the ssl-ca file ${join(dir, 'missing.pem')} cannot be read (ENOENT)`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives TypeORM the socket of each server and one TLS setting, which replicas must share', () => {
    const options = buildDataSourceOptions({
      url: 'mysql://cal@localhost/cal?socket=/run/primary.sock&ssl-mode=REQUIRED',
      readUrls: ['mysql://cal@replica/cal?ssl-mode=REQUIRED'],
    }) as unknown as {
      ssl: unknown;
      replication: { master: Record<string, unknown>; slaves: Record<string, unknown>[] };
    };
    expect(options.ssl).toEqual({ rejectUnauthorized: false, verifyIdentity: false });
    expect(options.replication.master).toEqual({ url: 'mysql://cal@localhost/cal', socketPath: '/run/primary.sock' });
    expect(options.replication.slaves).toEqual([{ url: 'mysql://cal@replica/cal' }]);
    expect(() =>
      buildDataSourceOptions({
        url: 'mysql://cal@db/cal?ssl-mode=REQUIRED',
        readUrls: ['mysql://cal@replica/cal'],
      }),
    ).toThrow('DATABASE_READ_URLS: ssl-mode and ssl-ca must be the same as in DATABASE_URL');
  });
});
