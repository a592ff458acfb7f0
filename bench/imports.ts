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
 *   an empty second calendar, then again (unchanged);
 * - the same events created one by one through `POST /events` into an empty third calendar, and what each
 *   import took against it (issue 49: an import at most half of it).
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

/** Another database beside the first: a fresh SQLite file, or `<name>_<suffix>` on the same MySQL server. */
function secondDatabase(first: string, suffix = 'tec'): { url: string; drop: () => void } {
  if (first.startsWith('mysql')) {
    const url = new URL(first);
    const name = `${url.pathname.slice(1)}_${suffix}`;
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
  const file = join(tmpdir(), `cal-bench-${suffix}-${randomBytes(4).toString('hex')}.sqlite`);
  return { url: `sqlite:${file}`, drop: () => rmSync(file, { force: true }) };
}

/** The feed's events as `POST /events` bodies, the same fields as the import writes. */
function apiEvents(count: number): Record<string, unknown>[] {
  const day = (n: number) => new Date(Date.UTC(2031, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
  return Array.from({ length: count }, (_, i) => {
    const zone = ZONES[i % ZONES.length];
    const start = day(i % 700);
    const times =
      i % 10 === 0
        ? { all_day: true, start_date: start, end_date: day((i % 700) + (i % 3)) }
        : zone === 'UTC'
          ? { start_date: `${start} 18:00`, end_date: `${start} 20:00`, timezone: 'UTC' }
          : { start_date: `${start} 19:00`, end_date: `${start} 21:00`, timezone: zone };
    return {
      title: `Bench event ${i}`,
      description: `Event ${i} of the import benchmark.\nSecond line.`,
      ...times,
      venue: { venue: `Bench hall ${i % 20}`, address: `Main street ${i % 20}` },
      categories: [`Bench ${i % 10}`],
      website: `https://example.org/events/${i}`,
    };
  });
}

/** Creates the events one by one through the API (one request after another); how long that took. */
async function createOneByOne(url: string, auth: string, events: Record<string, unknown>[]): Promise<number> {
  const started = performance.now();
  for (const event of events) {
    const res = await fetch(`${url}/cal/events/v1/events`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(event),
    });
    if (res.status !== 201) throw new Error(`POST /events answered ${res.status}: ${await res.text()}`);
  }
  return performance.now() - started;
}

async function main(): Promise<void> {
  const login = 'bench-admin';
  const password = 'bench password 123456';
  const admin = { CAL_ADMIN_LOGIN: login, CAL_ADMIN_PASSWORD: password, SITE_TIMEZONE: 'UTC' };
  const dir = mkdtempSync(join(tmpdir(), 'cal-bench-imports-'));
  const file = join(dir, 'bench.ics');
  writeFileSync(file, feed(EVENTS));
  const target = secondDatabase(process.env.BENCH_DATABASE_URL ?? 'sqlite:');
  const third = secondDatabase(process.env.BENCH_DATABASE_URL ?? 'sqlite:', 'api');
  // The target's schema and its administrator, as a fresh installation has them (first: both servers would
  // take the same port).
  for (const other of [target, third])
    await (await startServer({ ...admin, IMPORTS_SCHEDULER: 'false' }, other.url)).stop();
  const source = await startServer({ ...admin, IMPORTS_SCHEDULER: 'false' });
  let sourceRunning = true;
  try {
    console.log(`database: ${source.databaseUrl.replace(/\/\/[^@]*@/, '//')}; ${EVENTS} events`);
    const icalRun = cli(source.databaseUrl, ['import:ical', file]);
    report('import:ical, into an empty calendar', icalRun);
    report('import:ical again (nothing changed)', cli(source.databaseUrl, ['import:ical', file]));
    const tec = ['import:tec', source.url, '--user', login, '--password', password];
    const tecRun = cli(target.url, tec);
    report("import:tec from that instance's alias, into an empty one", tecRun);
    report('import:tec again (nothing changed)', cli(target.url, tec));
    // One server at a time: they would take the same port.
    sourceRunning = false;
    await source.stop();
    const api = await startServer({ ...admin, IMPORTS_SCHEDULER: 'false' }, third.url);
    try {
      const auth = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
      const ms = await createOneByOne(api.url, auth, apiEvents(EVENTS));
      const counts = { created: EVENTS, updated: 0, unchanged: 0, trashed: 0, failed: [] };
      report('POST /events one by one, into an empty one', { ms, summary: counts });
      console.log(
        `import:ical ÷ one by one: ${(icalRun.ms / ms).toFixed(2)}; import:tec ÷ one by one: ${(tecRun.ms / ms).toFixed(2)} (issue 49: at most 0.5)`,
      );
    } finally {
      await api.stop();
    }
  } finally {
    if (sourceRunning) await source.stop();
    target.drop();
    third.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
