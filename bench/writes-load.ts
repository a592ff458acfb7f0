import { measure } from './lib/load';
import { localDatabasePid } from './lib/process-cpu';
import { startServer } from './lib/server';

/**
 * `POST /events` with an inline venue, two organizers, categories and tags, 8 connections, 10 s:
 * `npm run bench:writes` (BENCH_DATABASE_URL=mysql://…/empty_db for MySQL). Every request creates a new
 * event; venues, organizers and terms come from small pools, so writers keep meeting on the same rows
 * (reuse by name, term counts), as editors of one site do. Target: ≥ 200 req/s on MariaDB, no errors.
 * BENCH_DESCRIPTION_WORDS=N gives each event a description of N distinct words out of a vocabulary of 3,000
 * shared by all events (what the search index and its day counts write grows with it).
 */
const DESCRIPTION_WORDS = Number(process.env.BENCH_DESCRIPTION_WORDS ?? 0);
const VOCABULARY = 3000;

function description(i: number): string {
  if (DESCRIPTION_WORDS <= 0) return '<p>A concert on the pier, with brass and a choir.</p>';
  const words = Array.from({ length: Math.min(DESCRIPTION_WORDS, VOCABULARY) }, (_, k) => {
    return `word${(i * 37 + k) % VOCABULARY}`;
  });
  return `<p>${words.join(' ')}</p>`;
}
async function main(): Promise<void> {
  const login = 'bench-admin';
  const password = 'bench password 123456';
  const server = await startServer({ CAL_ADMIN_LOGIN: login, CAL_ADMIN_PASSWORD: password, SITE_TIMEZONE: 'UTC' });
  let n = 0;
  const body = () => {
    const i = n++;
    return JSON.stringify({
      title: `Bench event ${i}`,
      description: description(i),
      start_date: `2031-0${1 + (i % 9)}-1${i % 10} 19:00:00`,
      end_date: `2031-0${1 + (i % 9)}-1${i % 10} 22:00:00`,
      venue: { venue: `Bench Hall ${i % 20}`, city: 'Berlin', country: 'Germany' },
      organizer: [{ organizer: `Bench Society ${i % 25}`, email: `society${i % 25}@example.org` }],
      categories: [`Bench category ${i % 10}`],
      tags: [`bench-tag-${i % 30}`, `bench-tag-${(i + 7) % 30}`],
    });
  };
  try {
    const headers = {
      authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
      'content-type': 'application/json',
    };
    const url = `${server.url}/cal/events/v1/events`;
    await measure('warm-up', url, { method: 'POST', headers, body, connections: 8, duration: 3 });
    const database = localDatabasePid(server.databaseUrl);
    const figures = await measure('POST /events (inline links)', url, {
      method: 'POST',
      headers,
      body,
      connections: 8,
      cpuOf: { service: server.pid, ...(database ? { database } : {}) },
    });
    console.log(`\n${figures.requestsPerSecond} req/s with ${figures.non2xx} errors (target ≥ 200 req/s, 0 errors)`);
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
