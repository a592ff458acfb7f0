import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './lib/server';

/**
 * Imports (issue 37): `npm run bench:imports` (BENCH_DATABASE_URL=mysql://root@127.0.0.1:3306/empty_db for
 * MariaDB; the TEC import's target is a second database, `<name>_tec`, made and dropped here). Prints:
 * - `import:ical` of a 10,000-event iCalendar file (three time zones, all-day and multi-day events, 20
 *   venues, 10 categories) into an empty calendar, then the same file again (every record unchanged);
 * - `import:tec` of those 10,000 events (with their venues and categories) from that instance's TEC alias into
 *   an empty second calendar, then again (unchanged).
 * BENCH_IMPORT_EVENTS=N changes the number of events (default 10,000).
 */
const EVENTS = Number(process.env.BENCH_IMPORT_EVENTS ?? 10_000);
const ZONES = ['Europe/Berlin', 'America/New_York', 'UTC'];

function feed(count: number): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//bench//imports//EN'];
  const day = (n: number) => {
    const date = new Date(Date.UTC(2031, 0, 1) + n * 86_400_000);
    return date.toISOString().slice(0, 10).replaceAll('-', '');
  };
  for (let i = 0; i < count; i++) {
    const zone = ZONES[i % ZONES.length];
    const start = day(i % 700);
    const timed =
      i % 10 === 0
        ? [`DTSTART;VALUE=DATE:${start}`, `DTEND;VALUE=DATE:${day((i % 700) + 1 + (i % 3))}`]
        : zone === 'UTC'
          ? [`DTSTART:${start}T180000Z`, `DTEND:${start}T200000Z`]
          : [`DTSTART;TZID=${zone}:${start}T190000`, `DTEND;TZID=${zone}:${start}T210000`];
    lines.push(
      'BEGIN:VEVENT',
      `UID:bench-${i}@imports`,
      'DTSTAMP:20310101T000000Z',
      ...timed,
      `SUMMARY:Bench event ${i}`,
      `DESCRIPTION:Event ${i} of the import benchmark.\\nSecond line.`,
      `LOCATION:Bench hall ${i % 20}, Main street ${i % 20}`,
      `CATEGORIES:Bench ${i % 10}`,
      `URL:https://example.org/events/${i}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.join('\r\n')}\r\n`;
}

/** Runs the compiled CLI on `databaseUrl`; its summary, and how long it took. */
function cli(databaseUrl: string, args: string[]): { ms: number; summary: Record<string, unknown> } {
  const started = performance.now();
  const run = spawnSync(process.execPath, ['dist/src/cli/main.js', ...args, '--json'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`cli ${args[0]} exited ${run.status}: ${run.stderr.slice(-2000)}`);
  return { ms, summary: JSON.parse(run.stdout) as Record<string, unknown> };
}

function report(label: string, { ms, summary }: { ms: number; summary: Record<string, unknown> }): void {
  const counts = ['created', 'updated', 'unchanged', 'trashed'].map((k) => `${k} ${String(summary[k])}`).join(', ');
  const failed = (summary.failed as unknown[]).length;
  console.log(
    `${label.padEnd(52)} ${(ms / 1000).toFixed(1).padStart(7)} s  ${Math.round(EVENTS / (ms / 1000))
      .toString()
      .padStart(5)} events/s  (${counts}, failed ${failed})`,
  );
}

/** A second database beside the first: a fresh SQLite file, or `<name>_tec` on the same MySQL server. */
function secondDatabase(first: string): { url: string; drop: () => void } {
  if (first.startsWith('mysql')) {
    const url = new URL(first);
    const name = `${url.pathname.slice(1)}_tec`;
    const admin = (action: string) =>
      spawnSync(process.execPath, ['.ci/mysql-admin.cjs', action, name], {
        env: {
          ...process.env,
          MYSQL_SERVER_URL: `${url.protocol}//${url.username}${url.password ? `:${url.password}` : ''}@${url.host}`,
        },
        stdio: 'inherit',
      });
    admin('drop');
    if (admin('create').status !== 0) throw new Error(`cannot create the database ${name}`);
    url.pathname = `/${name}`;
    return { url: url.toString(), drop: () => void admin('drop') };
  }
  const file = join(tmpdir(), `cal-bench-tec-${randomBytes(4).toString('hex')}.sqlite`);
  return { url: `sqlite:${file}`, drop: () => rmSync(file, { force: true }) };
}

async function main(): Promise<void> {
  const login = 'bench-admin';
  const password = 'bench password 123456';
  const admin = { CAL_ADMIN_LOGIN: login, CAL_ADMIN_PASSWORD: password, SITE_TIMEZONE: 'UTC' };
  const dir = mkdtempSync(join(tmpdir(), 'cal-bench-imports-'));
  const file = join(dir, 'bench.ics');
  writeFileSync(file, feed(EVENTS));
  const target = secondDatabase(process.env.BENCH_DATABASE_URL ?? 'sqlite:');
  // The target's schema and its administrator, as a fresh installation has them (first: both servers would
  // take the same port).
  const empty = await startServer({ ...admin, IMPORTS_SCHEDULER: 'false' }, target.url);
  await empty.stop();
  const source = await startServer({ ...admin, IMPORTS_SCHEDULER: 'false' });
  try {
    console.log(`database: ${source.databaseUrl.replace(/\/\/[^@]*@/, '//')}; ${EVENTS} events`);
    report('import:ical, into an empty calendar', cli(source.databaseUrl, ['import:ical', file]));
    report('import:ical again (nothing changed)', cli(source.databaseUrl, ['import:ical', file]));
    const tec = ['import:tec', source.url, '--user', login, '--password', password];
    report("import:tec from that instance's alias, into an empty one", cli(target.url, tec));
    report('import:tec again (nothing changed)', cli(target.url, tec));
  } finally {
    await source.stop();
    target.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
