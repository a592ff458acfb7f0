import { sequentialP50 } from './lib/sequential-latency';
import { startServer } from './lib/server';

/**
 * Recurring events (issue 36): `npm run bench:series` (BENCH_DATABASE_URL=mysql://…/empty_db for MariaDB).
 * Prints the time to create a 500-occurrence series, to edit it whole (`scope=all`: a new title, cost and
 * venue on every occurrence), to cut it (`scope=following`) and to delete one occurrence (an EXDATE, which
 * every other occurrence records as a change); then the p50 of listing one month that holds 50 series
 * (a daily series each, 1,500 occurrences in the month) beside 1,000 single events, and of that month's feed
 * beside the feed of a month of 2,500 single events.
 * BENCH_SERIES_ROUNDS=N repeats the write figures N times (default 3) and prints each; BENCH_SERIES_SIZE=N
 * writes series of N occurrences (default 500; the documented maximum is 4,000); BENCH_SERIES_WRITES_ONLY=1
 * skips the reads (for a CPU profile of the writes alone, with BENCH_CPU_PROF).
 */
const ROUNDS = Number(process.env.BENCH_SERIES_ROUNDS ?? 3);
const SIZE = Number(process.env.BENCH_SERIES_SIZE ?? 500);
const WRITES_ONLY = process.env.BENCH_SERIES_WRITES_ONLY === '1';

async function main(): Promise<void> {
  const login = 'bench-admin';
  const password = 'bench password 123456';
  const server = await startServer({
    CAL_ADMIN_LOGIN: login,
    CAL_ADMIN_PASSWORD: password,
    SITE_TIMEZONE: 'Europe/Berlin',
    RESPONSE_CACHE_MB: '0',
  });
  const headers = {
    authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
    'content-type': 'application/json',
  };
  const api = async (method: string, path: string, body?: unknown): Promise<{ id: number }> => {
    const res = await fetch(`${server.url}/cal/events/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { id: number };
  };
  const timed = async (label: string, work: () => Promise<unknown>): Promise<void> => {
    const started = performance.now();
    await work();
    console.log(`${label.padEnd(58)} ${Math.round(performance.now() - started)} ms`);
  };
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const ms = async (work: () => Promise<unknown>): Promise<number> => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };
  try {
    const venue = await api('POST', '/venues', { venue: 'Bench Hall', city: 'Berlin' });
    const other = await api('POST', '/venues', { venue: 'Other Hall', city: 'Berlin' });
    // The ratios issue 48 asks for: a series' create and its one-series feed against a single event's.
    const single = { venue: venue.id, categories: ['Bench classes'], tags: ['bench'] };
    const singleCreates: number[] = [];
    let lastSingle = { id: 0 };
    for (let i = 0; i < 21; i++) {
      singleCreates.push(
        await ms(async () => {
          lastSingle = await api('POST', '/events', {
            ...single,
            title: `Bench single ${i}`,
            start_date: '2035-01-06 19:00:00',
            end_date: '2035-01-06 21:00:00',
          });
        }),
      );
    }
    let series = { id: 0 };
    const seriesMs = await ms(async () => {
      series = await api('POST', '/events', {
        ...single,
        title: 'Bench ratio series',
        start_date: '2036-01-06 19:00:00',
        end_date: '2036-01-06 21:00:00',
        recurrence: [`RRULE:FREQ=DAILY;COUNT=${SIZE}`],
      });
    });
    const feedOf = (query: string) => () =>
      fetch(`${server.url}/cal/events/v1/events.ics?${query}`).then((res) => res.arrayBuffer());
    const feedMs = async (query: string) => {
      const runs: number[] = [];
      for (let i = 0; i < 11; i++) runs.push(await ms(feedOf(`${query}&x=${i}`)));
      return median(runs);
    };
    const singleFeed = await feedMs(`include=${lastSingle.id}`);
    const seriesFeed = await feedMs(`series_id=${series.id}&start_date=2036-01-01&end_date=2042-01-01`);
    const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}×`;
    console.log(`${'p50 create a single event'.padEnd(58)} ${median(singleCreates).toFixed(1)} ms`);
    console.log(
      `${`create a series of ${SIZE}`.padEnd(58)} ${Math.round(seriesMs)} ms (${ratio(seriesMs, median(singleCreates))} a single; issue 48: ≤ 50×)`,
    );
    console.log(`${'p50 GET /events.ics, one single event'.padEnd(58)} ${singleFeed.toFixed(1)} ms`);
    console.log(
      `${`p50 GET /events.ics, the series of ${SIZE}`.padEnd(58)} ${seriesFeed.toFixed(1)} ms (${ratio(seriesFeed, singleFeed)}; issue 48: ≤ 3×)`,
    );
    for (let round = 1; round <= ROUNDS; round++) {
      let first = { id: 0 };
      await timed(`round ${round}: create a series of ${SIZE} (daily, venue, 2 terms)`, async () => {
        first = await api('POST', '/events', {
          title: `Bench series ${round}`,
          start_date: `203${round}-01-06 19:00:00`,
          end_date: `203${round}-01-06 21:00:00`,
          venue: venue.id,
          categories: ['Bench classes'],
          tags: ['bench'],
          recurrence: [`RRULE:FREQ=DAILY;COUNT=${SIZE}`],
        });
      });
      await timed(`round ${round}: edit it whole (scope=all: title, cost, venue)`, () =>
        api('PATCH', `/events/${first.id + 10}?scope=all`, {
          title: `Bench series ${round}, moved`,
          cost: '12',
          venue: other.id,
        }),
      );
      await timed(`round ${round}: delete one occurrence (EXDATE; ${SIZE - 1} changes)`, () =>
        api('DELETE', `/events/${first.id + 20}?force=true`),
      );
      await timed(`round ${round}: cut it (scope=following at occurrence ${SIZE / 2})`, () =>
        api('PATCH', `/events/${first.id + SIZE / 2}?scope=following`, { excerpt: 'From here on' }),
      );
    }
    if (WRITES_ONLY) return;
    // A month with 50 daily series (1,500 occurrences) and 1,000 single events.
    for (let s = 0; s < 50; s++) {
      await api('POST', '/events', {
        title: `Class ${s}`,
        start_date: `2041-03-01 ${String(8 + (s % 12)).padStart(2, '0')}:00:00`,
        end_date: `2041-03-01 ${String(9 + (s % 12)).padStart(2, '0')}:00:00`,
        venue: venue.id,
        recurrence: ['RRULE:FREQ=DAILY;COUNT=60'],
      });
    }
    for (let i = 0; i < 1000; i++) {
      await api('POST', '/events', {
        title: `Single ${i}`,
        start_date: `2041-03-${String(1 + (i % 28)).padStart(2, '0')} 12:00:00`,
        end_date: `2041-03-${String(1 + (i % 28)).padStart(2, '0')} 13:00:00`,
      });
    }
    // The comparison: a month of 2,500 single events, the same count as March's.
    for (let i = 0; i < 2500; i++) {
      const day = `2041-04-${String(1 + (i % 28)).padStart(2, '0')}`;
      await api('POST', '/events', {
        title: `Single ${i}`,
        start_date: `${day} ${String(8 + (i % 12)).padStart(2, '0')}:00:00`,
        end_date: `${day} ${String(9 + (i % 12)).padStart(2, '0')}:00:00`,
        venue: venue.id,
      });
    }
    const month = 'start_date=2041-03-01&end_date=2041-03-31';
    let page = 0;
    const list = await sequentialP50(server.url, () => `/cal/events/v1/events?${month}&page=${(page++ % 20) + 1}`, 10);
    console.log(`${'p50 GET /events, a month of 50 series + 1,000 singles'.padEnd(58)} ${list} ms`);
    const feed = await sequentialP50(server.url, () => `/cal/events/v1/events.ics?${month}&x=${page++}`, 10);
    console.log(`${'p50 GET /events.ics, the same month (2,500 events)'.padEnd(58)} ${feed} ms`);
    const singles = await sequentialP50(
      server.url,
      () => `/cal/events/v1/events.ics?start_date=2041-04-01&end_date=2041-04-30&x=${page++}`,
      10,
    );
    console.log(`${'p50 GET /events.ics, a month of 2,500 single events'.padEnd(58)} ${singles} ms`);
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
