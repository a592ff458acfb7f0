import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Connection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { connectAsRoot, haltOwnServer, startOwnServer, type OwnServer } from '../support/own-mariadb';
import { createUser } from '../support/users';

/** A test CA and a server certificate it signed for the name `localhost` only (EC keys: quick to make). */
function makeCertificates(dir: string): { ca: string; cert: string; key: string } {
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=cal test CA',
  );
  openssl('req', ...ec, '-keyout', at('server.key'), '-out', at('server.csr'), '-subj', '/CN=localhost');
  writeFileSync(at('server.ext'), 'subjectAltName=DNS:localhost\n');
  openssl(
    'x509', '-req', '-in', at('server.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial',
    '-out', at('server.pem'), '-days', '2', '-extfile', at('server.ext'),
  ); // prettier-ignore
  return { ca: at('ca.pem'), cert: at('server.pem'), key: at('server.key') };
}

/** Connects with the options the service would build from `url`, runs one statement, and closes. */
async function tryConnecting(url: string): Promise<string> {
  const dataSource = new DataSource(buildDataSourceOptions({ url }));
  await dataSource.initialize();
  try {
    const [row] = await dataSource.query<{ Value: string }[]>("SHOW SESSION STATUS LIKE 'Ssl_cipher'");
    return row.Value;
  } finally {
    await dataSource.destroy();
  }
}

/**
 * `DATABASE_URL`'s connection parameters (database-url.ts) against a MariaDB of the test's own that takes
 * TCP connections only over TLS (`require_secure_transport`), with a certificate from a test CA: TLS with
 * each `ssl-mode`, and a Unix socket. On both test runs: the server is the test's, whatever DATABASE_URL says.
 */
describe('database connections: TLS and Unix sockets (DATABASE_URL parameters)', () => {
  let dir: string;
  let own: OwnServer;
  let root: Connection;
  let certificates: { ca: string; cert: string; key: string };
  let port: number;
  const database = (url: string) => ({ url, kind: 'mysql' as const, drop: () => Promise.resolve() });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cal-tls-'));
    certificates = makeCertificates(dir);
    own = await startOwnServer(dir, 'tls', [
      `--ssl-ca=${certificates.ca}`,
      `--ssl-cert=${certificates.cert}`,
      `--ssl-key=${certificates.key}`,
      '--require-secure-transport=ON',
    ]);
    port = own.port;
    root = await connectAsRoot(own);
    await root.query(
      `CREATE DATABASE cal CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
       CREATE USER 'cal'@'127.0.0.1'; GRANT ALL ON cal.* TO 'cal'@'127.0.0.1';
       CREATE USER 'cal'@'localhost'; GRANT ALL ON cal.* TO 'cal'@'localhost';`,
    );
  });
  afterAll(async () => {
    await root?.end().catch(() => undefined);
    if (own) await haltOwnServer(own.server);
    rmSync(dir, { recursive: true, force: true });
  });

  it('is refused by this server without TLS over TCP and let in with it, so the cases below prove TLS', async () => {
    // MariaDB answers an insecure login under require_secure_transport as a denied one.
    await expect(tryConnecting(`mysql://cal@127.0.0.1:${port}/cal`)).rejects.toThrow(/Access denied for user 'cal'/);
    expect(await tryConnecting(`mysql://cal@127.0.0.1:${port}/cal?ssl-mode=REQUIRED`)).not.toBe('');
  });

  it('runs the service over TLS with the CA it is given and the host name checked', async () => {
    const url = `mysql://cal@localhost:${port}/cal?ssl-mode=VERIFY_IDENTITY&ssl-ca=${encodeURIComponent(certificates.ca)}`;
    let t: TestApp | undefined;
    try {
      t = await createTestApp({ database: database(url) });
      const editor = await createUser(t, 'editor');
      const created = await postEvent(t, editor.auth, { title: 'Over TLS', venue: { venue: 'Encrypted Hall' } });
      const read = await t.http.get(`/cal/events/v1/events/${created.id}`).expect(200);
      expect(read.body).toMatchObject({ title: 'Over TLS', venue: { venue: 'Encrypted Hall' } });
      const [cipher] = await t.dataSource.query<{ Value: string }[]>("SHOW SESSION STATUS LIKE 'Ssl_cipher'");
      expect(cipher.Value).not.toBe('');
    } finally {
      await t?.close();
    }
  });

  it('checks the certificate against the CA alone with VERIFY_CA (the mode a CA alone asks for)', async () => {
    // The certificate names `localhost`, not the address: VERIFY_CA accepts it.
    expect(
      await tryConnecting(`mysql://cal@127.0.0.1:${port}/cal?ssl-ca=${encodeURIComponent(certificates.ca)}`),
    ).not.toBe('');
  });

  it("refuses a certificate Node's own CAs do not vouch for unless told which CA to trust", async () => {
    await expect(tryConnecting(`mysql://cal@localhost:${port}/cal?ssl-mode=VERIFY_CA`)).rejects.toThrow(
      /self[- ]signed certificate|unable to (get|verify)/i,
    );
  });

  it('encrypts without checking the certificate with ssl-mode=REQUIRED', async () => {
    expect(await tryConnecting(`mysql://cal@localhost:${port}/cal?ssl-mode=REQUIRED`)).not.toBe('');
  });

  it('connects through the Unix socket, which the URL names, whatever its port says', async () => {
    // Port 1 answers nothing: only the socket can connect. MariaDB counts a socket as secure transport.
    const url = `mysql://cal@localhost:1/cal?socket=${encodeURIComponent(own.socket)}`;
    expect(await tryConnecting(url)).toBe('');
    const t = await createTestApp({ database: database(url) });
    try {
      const [row] = await t.dataSource.query<{ user: string }[]>('SELECT CURRENT_USER() AS user');
      expect(row.user).toBe('cal@localhost');
      await t.http.get('/cal/events/v1/events').expect(200);
    } finally {
      await t.close();
    }
  });
});
