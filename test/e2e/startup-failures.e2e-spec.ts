import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildService, freePort, ServiceProcess } from '../support/service-process';

// Each test starts the compiled service once; whatever it left running is stopped after it.
let service: ServiceProcess | null = null;
beforeAll(() => buildService());
afterEach(async () => {
  service?.child.kill('SIGKILL');
  await service?.exited;
  service = null;
});

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
  it('waits for a server that is not listening (yet), saying so when it happens, not when it gives up', async () => {
    const port = await freePort();
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
  });

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
  });
});

/** The first start of a new team: settings with typos, a port in use, a file the service may not write. */
describe('start-up mistakes a new team makes', () => {
  const sqlite = () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'cal-start-')), 'calendar.sqlite')}`;

  it('warns of a setting that looks like a known one, naming it, and still starts', async () => {
    service = new ServiceProcess({ DATABASE_URL: sqlite(), PORT: '0', DATABSE_URL: 'mysql://db/cal', DB_HOST: 'db' });
    await service.until(() => service!.listening().length > 0);
    const warnings = service.lines.filter((l) => l.level === 40).map((l) => l.msg);
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^DATABSE_URL is set but is not a setting .*did you mean DATABASE_URL\?$/),
        expect.stringMatching(/^DB_HOST is set but is not a setting .*did you mean DATABASE_URL\?$/),
      ]),
    );
  });

  it('reports bad settings once, as one JSON line without a stack, when its output is not a terminal', async () => {
    service = new ServiceProcess({ DATABASE_URL: sqlite(), PORT: 'abc', LOG_LEVEL: 'loud' });
    expect(await service.exited).toBe(1);
    expect(service.lines).toHaveLength(1);
    const [line] = service.lines;
    expect(line.level).toBe(60);
    expect(line.msg).toBe(
      'start-up failed: invalid configuration: PORT="abc": PORT must be an integer number; ' +
        'LOG_LEVEL="loud": LOG_LEVEL must be one of the following values: fatal, error, warn, info, debug, trace, silent',
    );
  });

  it('reports bad settings as plain lines on a terminal', async () => {
    // `script` gives the service a terminal of its own and copies what it writes.
    const main = join(process.cwd(), 'dist', 'src', 'main.js');
    const output = await new Promise<string>((resolve) =>
      execFile(
        'script',
        ['-qec', `${process.execPath} ${main}`, '/dev/null'],
        { env: { ...process.env, PORT: 'abc', DATABASE_URL: sqlite() } },
        (_error, stdout) => resolve(stdout),
      ),
    );
    expect(output.replace(/\r/g, '').trim()).toBe(
      'Invalid configuration:\n  PORT="abc": PORT must be an integer number\n(docs/configuration.md lists every setting)',
    );
  });

  it('says what to do when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      service = new ServiceProcess({ DATABASE_URL: sqlite(), PORT: String(port), HOST: '127.0.0.1' });
      expect(await service.exited).toBe(1);
      const failures = service.lines.filter((l) => l.level >= 50);
      expect(failures).toHaveLength(1);
      expect(failures[0].msg).toContain(`another process already listens on port ${port}`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('fails the start on an SQLite file it may not write, and says so', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cal-readonly-'));
    const file = join(folder, 'calendar.sqlite');
    // A database as a running service leaves it, every migration applied: the start has nothing to write.
    const migrated = spawnSync(
      process.execPath,
      [join(process.cwd(), 'dist', 'src', 'cli', 'main.js'), 'migrations:run'],
      {
        env: { ...process.env, DATABASE_URL: `sqlite:${file}` },
        encoding: 'utf8',
      },
    );
    expect(migrated.status).toBe(0);
    chmodSync(file, 0o444);
    // The folder stays writable, as in the report: SQLite opens the file read-only without a word.
    chmodSync(folder, 0o777);
    service = new ServiceProcess({ DATABASE_URL: `sqlite:${file}`, PORT: '0' }, { fileModesApply: true });
    expect(await service.exited).toBe(1);
    const fatal = service.lines.filter((l) => l.level === 60);
    expect(fatal).toHaveLength(1);
    expect(fatal[0].msg).toContain('attempt to write a readonly database');
    expect(fatal[0].msg).toContain('writable by the user the service runs as');
  });
});

/**
 * Two servers on one SQLite file: SQLite has one writer, and the second one's writes would queue behind the
 * first's with nothing to say why. The second is refused with what to do; a lock its holder left behind
 * when it died is taken over.
 */
describe('a second server on one SQLite file', () => {
  let first: ServiceProcess | null = null;
  afterEach(async () => {
    first?.child.kill('SIGKILL');
    await first?.exited;
    first = null;
  });

  it('is refused while the first serves it, and starts once the first has stopped', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cal-one-writer-')), 'calendar.sqlite');
    first = new ServiceProcess({ DATABASE_URL: `sqlite:${file}`, PORT: '0' });
    await first.until(() => first!.listening().length > 0);
    expect(existsSync(`${file}-server.lock`)).toBe(true);

    service = new ServiceProcess({ DATABASE_URL: `sqlite:${file}`, PORT: '0' });
    expect(await service.exited).toBe(1);
    const [fatal] = service.lines.filter((l) => l.level === 60);
    expect(fatal.msg).toContain(`another server (pid ${first.child.pid}`);
    expect(fatal.msg).toContain('run one server per file');
    expect(fatal.msg).toContain('use MySQL');
    // The first one never noticed.
    expect(first.child.exitCode).toBeNull();

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(`${file}-server.lock`)).toBe(false);
    service = new ServiceProcess({ DATABASE_URL: `sqlite:${file}`, PORT: '0' });
    await service.until(() => service!.listening().length > 0);
  });

  it('takes over the lock of a server that died without removing it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cal-one-writer-')), 'calendar.sqlite');
    // A process that has ended: its pid names nobody now.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(
      `${file}-server.lock`,
      JSON.stringify({ pid: Number(gone.stdout), host: hostname(), started: 'then' }),
    );
    service = new ServiceProcess({ DATABASE_URL: `sqlite:${file}`, PORT: '0' });
    await service.until(() => service!.listening().length > 0);
    expect(JSON.parse(readFileSync(`${file}-server.lock`, 'utf8'))).toMatchObject({ pid: service.child.pid });
  });
});

/** A person starting the service in a terminal reads a few short lines; a collector gets JSON (LOG_FORMAT=auto). */
describe('start-up output for people', () => {
  it('prints short human lines with LOG_FORMAT=pretty (what a terminal gets), the summary in one of them', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cal-pretty-')), 'calendar.sqlite');
    service = new ServiceProcess({ DATABASE_URL: `sqlite:${file}`, PORT: '0', LOG_FORMAT: 'pretty' });
    await service.until((lines) => lines.some((l) => l.msg.includes('listening on')));
    const [summary] = service.lines.filter((l) => l.msg.includes('listening on'));
    // Not JSON (ServiceProcess keeps such a line as it came, level 0), and short enough to read at a glance.
    expect(summary.level).toBe(0);
    expect(summary.msg).toMatch(
      /^\[\d\d:\d\d:\d\d\] INFO: \[Startup\] calendar \S+ listening on \S+:[1-9]\d*, sqlite /,
    );
    expect(summary.msg.length).toBeLessThan(300);
    expect(service.lines.every((l) => l.level === 0 && !l.msg.startsWith('{'))).toBe(true);
  });

  it('writes JSON lines when its output is not a terminal (LOG_FORMAT=auto)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cal-json-')), 'calendar.sqlite');
    service = new ServiceProcess({ DATABASE_URL: `sqlite:${file}`, PORT: '0' });
    await service.until(() => service!.listening().length > 0);
    expect(service.listening()[0].level).toBe(30);
  });
});
