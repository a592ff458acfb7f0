import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchSource, SourceFetchError, type FetchOptions } from './source-fetch';

/** What each path of the test server does. */
const routes: Record<string, (send: (status: number, headers: Record<string, string>, body?: string) => void) => void> =
  {
    '/ok': (send) => send(200, { ETag: '"v1"' }, 'BEGIN:VCALENDAR'),
    '/flaky': (send) => send(200, {}, 'second try'),
    '/big': (send) => send(200, {}, 'x'.repeat(5000)),
    '/error': (send) => send(500, {}, 'oops'),
    '/loop': (send) => send(302, { Location: '/loop' }),
    '/hop': (send) => send(301, { Location: '/ok' }),
    '/elsewhere': (send) => send(302, { Location: 'http://localhost:PORT/headers' }),
    // Never answers.
    '/hang': () => undefined,
  };

describe('fetchSource', () => {
  let server: Server;
  let base = '';
  const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
  const open: FetchOptions = { guard: null, timeoutMs: 30_000, maxBytes: 1000 };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      seen.push({ path, headers: req.headers });
      if (path === '/flaky' && seen.filter((r) => r.path === '/flaky').length === 1) {
        // The first request finds its connection dropped (a server closing an idle kept-alive socket).
        req.socket.destroy();
        return;
      }
      if (path === '/headers') {
        res.writeHead(200).end(JSON.stringify(req.headers));
        return;
      }
      if (req.headers['if-none-match'] === '"v1"') {
        res.writeHead(304).end();
        return;
      }
      const port = String((server.address() as AddressInfo).port);
      routes[path]?.((status, headers, body) =>
        res
          .writeHead(status, Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('PORT', port)])))
          .end(body),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const failure = async (url: string, options: FetchOptions = open): Promise<SourceFetchError> => {
    const error = await fetchSource(url, options).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SourceFetchError);
    return error as SourceFetchError;
  };

  it('reads a source, follows redirects, and gives its validators', async () => {
    const answer = await fetchSource(`${base}/hop`, open);
    expect(answer).toMatchObject({ url: `${base}/ok`, status: 200, notModified: false, text: 'BEGIN:VCALENDAR' });
    expect(answer.headers.etag).toBe('"v1"');
    const again = await fetchSource(`${base}/ok`, { ...open, conditional: { etag: '"v1"' } });
    expect(again).toMatchObject({ status: 304, notModified: true, text: '' });
  });

  it('sends a GET again once when the server dropped its connection', async () => {
    expect((await fetchSource(`${base}/flaky`, open)).text).toBe('second try');
  });

  it('names each kind of failure', async () => {
    expect(await failure(`${base}/error`)).toMatchObject({ kind: 'status', message: `${base}/error answered 500` });
    expect(await failure(`${base}/big`)).toMatchObject({ kind: 'too-large' });
    expect(await failure(`${base}/loop`)).toMatchObject({ kind: 'redirects' });
    expect(await failure('ftp://example.org/feed.ics')).toMatchObject({ kind: 'refused' });
    expect(await failure('http://127.0.0.1:1/closed')).toMatchObject({ kind: 'network' });
    // The server never answers: the time limit ends the wait (whatever the machine's speed).
    expect(await failure(`${base}/hang`, { ...open, timeoutMs: 1000 })).toMatchObject({
      kind: 'timeout',
      message: `${base}/hang did not answer within 1 s`,
    });
  });

  it('refuses loopback and private addresses behind the guard (each hop is checked so)', async () => {
    const guarded: FetchOptions = { ...open, guard: { allowPrivate: false, allowSetting: 'IMPORTS_ALLOW_PRIVATE' } };
    const refused = await failure(`${base}/ok`, guarded);
    expect(refused.kind).toBe('refused');
    expect(refused.message).toContain('IMPORTS_ALLOW_PRIVATE=true');
    const allowed = { ...open, guard: { allowPrivate: true, allowSetting: 'IMPORTS_ALLOW_PRIVATE' } };
    expect((await fetchSource(`${base}/hop`, allowed)).status).toBe(200);
  });

  it('keeps credentials with the origin they were given for', async () => {
    const answer = await fetchSource(`${base}/elsewhere`, { ...open, headers: { Authorization: 'Basic c2VjcmV0' } });
    expect((JSON.parse(answer.text) as IncomingHttpHeaders).authorization).toBeUndefined();
    expect(seen.find((s) => s.path === '/elsewhere')?.headers.authorization).toBe('Basic c2VjcmV0');
  });
});
