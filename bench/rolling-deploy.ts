import { createConnection } from 'mysql2/promise';
import { copyOfBuild } from '../test/support/build-copy';
import { countDocumentWrites } from '../test/support/document-writes';
import { seedWithProgress } from './lib/seed-with-progress';
import { startServer, type BenchServer } from './lib/server';

const LIST = '/cal/events/v1/events?start_date=2000-01-01&end_date=2099-12-31&per_page=50';
const REQUESTS = 100;

async function pagesOf(server: BenchServer): Promise<number> {
  return Number((await fetch(`${server.url}${LIST}`)).headers.get('x-tec-totalpages'));
}

/** Reads `pages` list pages on each server in turn, `requests` in all (the response cache is off). */
async function alternate(servers: BenchServer[], pages: number, requests: number): Promise<void> {
  for (let i = 0; i < requests; i++) {
    const res = await fetch(`${servers[i % servers.length].url}${LIST}&page=${(i % pages) + 1}`);
    if (res.status !== 200) throw new Error(`a list answered ${res.status}`);
    await res.arrayBuffer();
  }
}

/**
 * Two builds on one database, as during a rolling deploy: `BENCH_DATABASE_URL=mysql://…/empty_db npm run
 * bench:rolling -- [events]`. Seeds the events, starts this build and a copy of it with one helper of the
 * mapper changed (so another build identity, as the next commit would have), lets each read every event
 * once, then counts the document rows written by 100 uncached list requests (50 per page) alternating between
 * the two builds. Before bodies were kept per build, each build took the other's for stale and rewrote them.
 */
async function main(): Promise<void> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? '';
  if (!databaseUrl.startsWith('mysql://')) {
    throw new Error('bench:rolling needs BENCH_DATABASE_URL=mysql://…/empty_db (SQLite takes one server)');
  }
  const events = Number(process.argv[2] ?? 2000);
  await seedWithProgress(databaseUrl, events);
  const env = { RESPONSE_CACHE_MB: '0', SITE_TIMEZONE: 'UTC' };
  const copy = copyOfBuild({ file: 'src/modules/events/model/event-cost.js', from: '} – ${', to: '} to ${' });
  const connection = await createConnection(databaseUrl);
  const servers: BenchServer[] = [];
  try {
    servers.push(await startServer(env, databaseUrl));
    servers.push(await startServer(env, databaseUrl, copy.folder));
    const writes = await countDocumentWrites((sql) => connection.query(sql), 'mysql');
    const pages = await pagesOf(servers[0]);
    // Each build reads every page until a whole round writes nothing (its bodies are built after the answers).
    let rounds = 0;
    for (let before = -1; before !== (await writes()) && rounds < 20; rounds++) {
      before = await writes();
      await alternate(servers, pages, pages * 2);
    }
    const firstReads = await writes();
    await alternate(servers, pages, REQUESTS);
    const steady = (await writes()) - firstReads;
    const [bodies] = await connection.query('SELECT format, COUNT(*) AS n FROM event_document_bodies GROUP BY format');
    console.log(`${pages} pages of 50 events, two builds on one database; bodies per build:`, bodies);
    console.log(`rows written until a round of reads wrote none (${rounds} rounds): ${firstReads}`);
    console.log(`rows written by the next ${REQUESTS} uncached list requests, alternating builds: ${steady}`);
  } finally {
    for (const server of servers) await server.stop();
    await connection.end();
    copy.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
