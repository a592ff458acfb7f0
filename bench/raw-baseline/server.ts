import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Pool } from 'mysql2/promise';
import { baselinePool, contextOf, list, single } from './routes';

/**
 * The yardstick of the cold path (docs/performance.md): a minimal `node:http` + `mysql2` server that
 * answers the routes of `routes.ts` and 404 to anything else. Run by `npm run bench:cold`.
 */

async function answer(pool: Pool, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://baseline');
  const ctx = contextOf(req);
  const match = /^\/cal\/events\/v1\/events(?:\/(\d+))?$/.exec(url.pathname);
  const [status, headers, body] =
    req.method !== 'GET' || !match
      ? [404, {}, { code: 'rest_no_route' }]
      : match[1]
        ? await single(pool, Number(match[1]), ctx)
        : await list(pool, url, ctx);
  const bytes = Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': bytes.length,
  });
  res.end(bytes);
}

function main(): void {
  const databaseUrl = process.env.BASELINE_DATABASE_URL ?? '';
  const port = Number(process.env.PORT ?? 0);
  const pool = baselinePool(databaseUrl);
  const server = createServer((req, res) => {
    answer(pool, req, res).catch((error: unknown) => {
      console.error(error);
      res.writeHead(500).end();
    });
  });
  server.listen(port, '127.0.0.1', () => console.log(`baseline listening on ${port}`));
  process.once('SIGTERM', () => {
    server.close();
    void pool.end();
  });
}

main();
