import { readFileSync } from 'node:fs';
import express from 'express';

/**
 * The limit of a hot read (issue 50): a bare Express server that answers the URLs of a JSON file with the
 * bytes and headers recorded from the service, from memory, with nothing else on the way: no security
 * headers, no log, no authentication, no cache look-up. `npm run bench:hot` starts it beside the service
 * and reports the service's hot reads as a share of its requests per second.
 *
 * The file: `{ "<path with query>": { "headers": { name: value }, "body": "<base64>" } }`.
 */
interface Recorded {
  headers: Record<string, string>;
  body: string;
}

function main(): void {
  const file = process.argv[2];
  if (!file) throw new Error('usage: cached-express.ts <recorded answers.json>');
  const answers = new Map(
    Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, Recorded>).map(([url, recorded]) => [
      url,
      { headers: recorded.headers, body: Buffer.from(recorded.body, 'base64') },
    ]),
  );
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use((req, res) => {
    const answer = answers.get(req.originalUrl);
    if (!answer) {
      res.status(404).end();
      return;
    }
    res.set(answer.headers).end(answer.body);
  });
  const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  process.once('SIGTERM', () => server.close());
}

main();
