import { Agent } from 'node:http';
import { seededServer } from './lib/seeded-server';
import { get, sequentialLatencies } from './lib/sequential-latency';

/**
 * Readers beside heavy work (issue 43): `npm run bench:isolation` (BENCH_DATABASE_URL=mysql://…/empty_db for
 * MariaDB). Seeds BENCH_EVENTS (default 12,000) events, then measures `/health` and a plain list, each asked
 * one request after another on its own connection, for BENCH_SECONDS (default 10) on a quiet service and
 * again while 16 clients read the full-range feed over and over (one turned away asks again a second later) and a five-year daily series (1,826
 * occurrences) is written again and again (BENCH_LOAD=feeds or =series for one of them alone). Prints p50,
 * p99 and max of each, and the loaded/quiet ratios.
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 12_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** `BENCH_LOAD=feeds` or `=series` runs one kind of load alone, to see which one readers pay for. */
const LOAD = new Set((process.env.BENCH_LOAD ?? 'feeds,series').split(','));
const FEED_CLIENTS = LOAD.has('feeds') ? 16 : 0;
const LOGIN = 'bench-admin';
const PASSWORD = 'bench password 123456';

interface Figures {
  p50: number;
  p99: number;
  max: number;
  count: number;
}

function figuresOf(took: number[]): Figures {
  const sorted = [...took].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? NaN;
  const round = (n: number) => Math.round(n * 10) / 10;
  return { p50: round(at(0.5)), p99: round(at(0.99)), max: round(sorted.at(-1) ?? NaN), count: sorted.length };
}

async function measure(base: string, seconds: number): Promise<{ health: Figures; list: Figures }> {
  const until = performance.now() + seconds * 1000;
  const [health, list] = await Promise.all([
    sequentialLatencies(base, () => '/health', until),
    sequentialLatencies(base, () => '/cal/events/v1/events', until),
  ]);
  return { health: figuresOf(health), list: figuresOf(list) };
}

async function main(): Promise<void> {
  const { server, stop } = await seededServer(EVENTS, {
    CAL_ADMIN_LOGIN: LOGIN,
    CAL_ADMIN_PASSWORD: PASSWORD,
    RESPONSE_CACHE_MB: '0',
    // A full-range feed of every seeded event and the series written (the default cap would refuse it: 400).
    ICAL_MAX_EVENTS: '100000',
  });
  const auth = `Basic ${Buffer.from(`${LOGIN}:${PASSWORD}`).toString('base64')}`;
  try {
    // Warm the paths first, so that neither phase pays for first use.
    await measure(server.url, 2);
    const quiet = await measure(server.url, SECONDS);

    let loaded = true;
    const feedStatuses = new Map<number, number>();
    const feeds = Array.from({ length: FEED_CLIENTS }, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      while (loaded) {
        const status = await get(
          `${server.url}/cal/events/v1/events.ics?start_date=2030-01-01&end_date=2033-12-31`,
          agent,
        );
        feedStatuses.set(status, (feedStatuses.get(status) ?? 0) + 1);
        // A client turned away (503, Retry-After) asks again a second later, not at once.
        if (status === 503) await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      agent.destroy();
    });
    let seriesWritten = 0;
    const writes = (async () => {
      while (loaded && LOAD.has('series')) {
        const res = await fetch(`${server.url}/cal/events/v1/events`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify({
            title: `Isolation series ${seriesWritten}`,
            start_date: '2031-01-01 09:00',
            end_date: '2031-01-01 10:00',
            recurrence: ['RRULE:FREQ=DAILY;UNTIL=20351231'],
          }),
        });
        if (res.status !== 201) throw new Error(`series write answered ${res.status}: ${await res.text()}`);
        seriesWritten++;
      }
    })();
    const busy = await measure(server.url, SECONDS);
    loaded = false;
    await Promise.all([...feeds, writes]);

    const database = server.databaseUrl.split(':')[0];
    console.log(`isolation on ${database}, ${EVENTS} events, ${SECONDS} s per phase`);
    console.log(
      `load: ${FEED_CLIENTS} full-range feed clients (answers ${JSON.stringify(Object.fromEntries(feedStatuses))}), ` +
        `${seriesWritten} five-year daily series written`,
    );
    console.log('what              quiet p50/p99/max ms      loaded p50/p99/max ms     p99 ratio');
    for (const key of ['health', 'list'] as const) {
      const q = quiet[key];
      const b = busy[key];
      console.log(
        `${key.padEnd(16)}  ${`${q.p50} / ${q.p99} / ${q.max}`.padEnd(24)}  ${`${b.p50} / ${b.p99} / ${b.max}`.padEnd(24)}  ${(b.p99 / q.p99).toFixed(1)}×`,
      );
    }
  } finally {
    await stop();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
