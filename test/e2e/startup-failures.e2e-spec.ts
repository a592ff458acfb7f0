import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildService, ServiceProcess } from '../support/service-process';

/** A port on this machine that nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const onMysql = /^(mysql|mariadb):/.test(process.env.DATABASE_URL ?? '');

/** DATABASE_URL's server with another database name. */
function mysqlUrlOf(database: string): string {
  const url = new URL(process.env.DATABASE_URL!.replace(/^mariadb:/, 'mysql:'));
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * The operator's first minute with a wrong `DATABASE_URL`: a server that may still be starting is waited
 * for, line by line as it happens; one that refuses for good fails the start at once, in one line that
 * says what to do.
 */
describe('start-up when the database refuses the first connection', () => {
  let service: ServiceProcess | null = null;
  beforeAll(() => buildService(), 120_000);
  afterEach(async () => {
    service?.child.kill('SIGKILL');
    await service?.exited;
    service = null;
  });

  it('waits for a server that is not listening (yet), saying so when it happens, not when it gives up', async () => {
    const port = await closedPort();
    service = new ServiceProcess({ DATABASE_URL: `mysql://root@127.0.0.1:${port}/calendar`, PORT: '0' });
    const retries = () => service!.lines.filter((l) => l.msg.includes('Unable to connect to the database'));
    await service.until(() => retries().length >= 2);
    const [first, second] = retries();
    expect(first.msg).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
    expect(first.msg).toContain('Retrying (1)');
    // A warning, not an error: the start may yet succeed.
    expect([first.level, second.level]).toEqual([40, 40]);
    // Written three seconds apart as the tries happen (held back until the end, they came in one burst).
    expect(second.time - first.time).toBeGreaterThanOrEqual(2_000);
    expect(service.lines.some((l) => l.level === 60)).toBe(false);
  }, 60_000);

  it('fails at once, without tries, on a database that refuses for good, and says what to do', async () => {
    // On MySQL a database that does not exist; on SQLite a "file" that is a folder.
    const [databaseUrl, cause, hint] = onMysql
      ? [mysqlUrlOf('cal_no_such_database'), "Unknown database 'cal_no_such_database'", 'CREATE DATABASE']
      : [`sqlite:${mkdtempSync(join(tmpdir(), 'cal-folder-'))}`, 'unable to open database file', 'must be a file'];
    service = new ServiceProcess({ DATABASE_URL: databaseUrl, PORT: '0' });
    expect(await service.exited).toBe(1);
    expect(service.lines.filter((l) => l.msg.includes('Retrying'))).toEqual([]);
    const fatal = service.lines.filter((l) => l.level === 60);
    expect(fatal).toHaveLength(1);
    expect(fatal[0].msg).toContain(cause);
    expect(fatal[0].msg).toContain(hint);
  }, 60_000);
});
