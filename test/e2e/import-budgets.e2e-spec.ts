import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import {
  ImportSubscriptions,
  type StartedRun,
} from '../../src/modules/imports/subscriptions/import-subscriptions.service';
import { SourceDigest } from '../../src/modules/imports/source-digest';
import { ImportRunEntity } from '../../src/modules/imports/subscriptions/import-run.entity';
import { ImportSubscriptionEntity } from '../../src/modules/imports/subscriptions/import-subscription.entity';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { whileHealthAnswers } from '../support/health-watch';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';

interface RunBody {
  id: number;
  status: string;
  crashed: boolean;
  created: number;
  failed: { id: string; reason: string }[];
}

/** A feed of `events` VEVENTs, with `zones` VTIMEZONEs of `observances` yearly observances each. */
function feedOf(events: number, zones = 0, observances = 0): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//budgets//EN'];
  for (let z = 0; z < zones; z++) {
    lines.push('BEGIN:VTIMEZONE', `TZID:Bomb/Zone${z}`);
    for (let o = 0; o < observances; o++) {
      const kind = o % 2 ? 'DAYLIGHT' : 'STANDARD';
      lines.push(
        `BEGIN:${kind}`,
        `DTSTART:${1601 + o}0101T000000`,
        `TZOFFSETFROM:+0${o % 9}00`,
        `TZOFFSETTO:+0${(o + 1) % 9}00`,
        'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
        `END:${kind}`,
      );
    }
    lines.push('END:VTIMEZONE');
  }
  for (let e = 0; e < events; e++) {
    const tzid = zones > 0 ? `Bomb/Zone${e % zones}` : 'Europe/Berlin';
    lines.push(
      'BEGIN:VEVENT',
      `UID:budget-${e}@feed`,
      'DTSTAMP:20310101T000000Z',
      `DTSTART;TZID=${tzid}:20310301T190000`,
      `DTEND;TZID=${tzid}:20310301T200000`,
      `SUMMARY:Budget ${e}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * One loopback server for every source of these tests: `/feed.ics` (the body set, or held until released)
 * and a TEC site whose every list claims a billion pages of full pages, or ends with a short one.
 */
class Sources {
  feed = '';
  /**
   * A feed of this many events, made as it is sent: a 12 MB feed held as one string (and the garbage of
   * building it) would cost this test process's event loop, which is also the service's, a long GC pause.
   */
  streamedEvents = 0;
  streamedBytes = 0;
  holdFeed = false;
  shortAfter: number | null = null;
  tecRequests: string[] = [];
  private held: ServerResponse[] = [];
  private server: Server | null = null;
  origin = '';

  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/feed.ics') {
        if (this.holdFeed) this.held.push(res);
        else if (this.streamedEvents > 0) this.stream(res, this.streamedEvents);
        else res.writeHead(200, { 'Content-Type': 'text/calendar' }).end(this.feed);
        return;
      }
      const list = /\/wp-json\/tribe\/events\/v1\/(\w+)$/.exec(url.pathname)?.[1];
      if (!list) return void res.writeHead(404).end();
      this.tecRequests.push(`${list}:${url.searchParams.get('page') ?? '1'}`);
      const page = Number(url.searchParams.get('page') ?? '1');
      const size = this.shortAfter !== null && page > this.shortAfter ? 1 : 2;
      const items = Array.from({ length: size }, (_, i) => ({
        id: page * 10 + i,
        name: `T${page}-${i}`,
        slug: `t${page}-${i}`,
      }));
      res
        .writeHead(200, { 'Content-Type': 'application/json', 'X-WP-TotalPages': '1000000000' })
        .end(JSON.stringify({ [list]: items, total_pages: 1_000_000_000 }));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private stream(res: ServerResponse, events: number): void {
    this.streamedBytes = 0;
    const sent = (chunk: string) => (this.streamedBytes += Buffer.byteLength(chunk));
    res.writeHead(200, { 'Content-Type': 'text/calendar' });
    Readable.from(
      (function* () {
        const [head, tail] = feedOf(0).split('END:VCALENDAR');
        yield head;
        for (let from = 0; from < events; from += 500) {
          const chunk = feedOf(Math.min(500, events - from))
            .replace(/^[\s\S]*?(?=BEGIN:VEVENT)/, '')
            .replace(/END:VCALENDAR\r\n$/, '')
            .replaceAll('UID:budget-', `UID:budget-${from}-`);
          sent(chunk);
          yield chunk;
        }
        yield `END:VCALENDAR${tail}`;
      })(),
    ).pipe(res);
  }

  async stop(): Promise<void> {
    for (const res of this.held.splice(0)) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/**
 * Hostile and huge sources (issue 43): each fails its run with the reason, within its budget, while the
 * service goes on answering `/health` within a second, and the process survives.
 */
describe('import budgets', () => {
  let a: TestApp;
  let b: TestApp;
  let admin: TestUser;
  const sources = new Sources();
  const env = {
    IMPORTS_ALLOW_PRIVATE: 'true',
    IMPORTS_SCHEDULER: 'false',
    IMPORTS_FETCH_TIMEOUT_SECONDS: '60',
    IMPORTS_MAX_PAGES: '3',
  };
  const api = (app: TestApp, method: 'get' | 'post' | 'patch' | 'delete', path: string) =>
    app.http[method](`${ns}${path}`).set('Authorization', admin.auth);

  let subscriptions = 0;
  /** A subscription of its own source (a URL of its own: what one test imports is no other's record). */
  async function subscribe(app: TestApp, body: { kind: string; url: string }): Promise<number> {
    const url = `${body.url}?subscription=${++subscriptions}`;
    const res = await api(app, 'post', '/imports')
      .send({ ...body, url, enabled: true })
      .expect(201);
    return res.body.id as number;
  }

  async function runOf(app: TestApp, id: number): Promise<RunBody> {
    return (await api(app, 'post', `/imports/${id}/run?wait=true`).expect(200)).body as RunBody;
  }

  beforeAll(async () => {
    await sources.start();
    a = await createTestApp({ env });
    b = await createTestApp({ database: a.database, env });
    admin = await createUser(a, 'administrator');
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await sources.stop();
  });

  it('refuses a VTIMEZONE bomb before parsing it, naming the setting, and writes nothing', async () => {
    sources.feed = feedOf(100, 50, 200);
    const id = await subscribe(a, { kind: 'ical', url: `${sources.origin}/feed.ics` });
    const run = await whileHealthAnswers(a, () => runOf(a, id));
    expect(run).toMatchObject({ status: 'failed', created: 0 });
    expect(run.failed[0].reason).toMatch(
      /^refused before parsing: line 606: a VTIMEZONE with more than 100 observances \(IMPORTS_MAX_OBSERVANCES\)$/,
    );
  });

  it('parses a heavy feed within its limits in a worker thread, and fails it cleanly past its heap', async () => {
    // Within the counts this instance allows, but its zones' arithmetic needs far more than its heap. The time
    // budget is the largest there is: beside CPU burners the parse ran past the default 60 s before it had
    // filled 128 MB, and this test is about the heap.
    const small = await createTestApp({
      database: a.database,
      env: {
        ...env,
        IMPORTS_PARSE_MEMORY_MB: '128',
        IMPORTS_PARSE_TIMEOUT_SECONDS: '3600',
        IMPORTS_MAX_VTIMEZONES: '100',
        IMPORTS_MAX_OBSERVANCES: '1000',
      },
    });
    try {
      sources.feed = feedOf(100, 50, 200);
      const id = await subscribe(small, { kind: 'ical', url: `${sources.origin}/feed.ics` });
      const run = await whileHealthAnswers(small, () => runOf(small, id));
      expect(run).toMatchObject({ status: 'failed', created: 0, crashed: true });
      expect(run.failed[0].reason).toMatch(/its parse needed more than its 128 MB of memory/);
      // The same feed again is refused once read, before its parse: a crash is not retried unchanged.
      const again = await runOf(small, id);
      expect(again).toMatchObject({ status: 'failed', created: 0, crashed: true });
      expect(again.failed).toEqual([
        {
          id: '',
          reason: expect.stringMatching(
            new RegExp(
              `^not run again over an unchanged source: run ${run.id} read the same and failed \\(the feed could not be read: its parse needed more than its 128 MB`,
            ),
          ),
        },
      ]);
      expect((await api(small, 'get', `/imports/${id}`).expect(200)).body).toMatchObject({
        failed_runs: 2,
        suspended_reason: null,
      });
      // The process is still whole: it answers, and imports a feed that fits (a changed source runs again).
      sources.feed = feedOf(3);
      expect(await runOf(small, id)).toMatchObject({ status: 'succeeded', created: 3, crashed: false });
      expect((await api(small, 'get', `/imports/${id}`).expect(200)).body).toMatchObject({ failed_runs: 0 });
    } finally {
      await small.close();
    }
  });

  it('refuses a 100,000-event feed before parsing it (IMPORTS_MAX_VEVENTS), answering /health throughout', async () => {
    sources.streamedEvents = 100_000;
    const id = await subscribe(a, { kind: 'ical', url: `${sources.origin}/feed.ics` });
    const run = await whileHealthAnswers(a, () => runOf(a, id)).finally(() => (sources.streamedEvents = 0));
    expect(sources.streamedBytes).toBeGreaterThan(12_000_000);
    expect(run).toMatchObject({ status: 'failed', created: 0 });
    expect(run.failed[0].reason).toMatch(/more than 50000 VEVENTs \(IMPORTS_MAX_VEVENTS\)/);
  });

  it('reports impossible DTSTARTs in a feed and imports the rest', async () => {
    sources.feed = feedOf(2).replace(
      'DTSTART;TZID=Europe/Berlin:20310301T190000',
      'DTSTART;TZID=Europe/Berlin:20311340T190000',
    );
    const id = await subscribe(a, { kind: 'ical', url: `${sources.origin}/feed.ics` });
    const run = await runOf(a, id);
    expect(run).toMatchObject({ status: 'failed', created: 1 });
    expect(run.failed.map((f) => f.reason)).toEqual([
      expect.stringMatching(/VEVENT 1 \(budget-0@feed\): DTSTART: 20311340T190000 is not a date that exists/),
    ]);
  });

  it('reads no more pages of a TEC list than IMPORTS_MAX_PAGES, whatever page count the site claims', async () => {
    sources.tecRequests = [];
    const id = await subscribe(a, { kind: 'tec', url: `${sources.origin}/` });
    const run = await whileHealthAnswers(a, () => runOf(a, id));
    expect(run.status).toBe('failed');
    expect(run.failed.at(-1)?.reason).toMatch(/lists more than 3 pages of categories \(IMPORTS_MAX_PAGES\)/);
    expect(sources.tecRequests).toEqual(['categories:1', 'categories:2', 'categories:3']);
  });

  it('ends a TEC list at its first short page, whatever page count the site claims', async () => {
    sources.tecRequests = [];
    sources.shortAfter = 1;
    try {
      const id = await subscribe(a, { kind: 'tec', url: `${sources.origin}/` });
      await runOf(a, id);
      for (const list of ['categories', 'tags', 'venues', 'organizers', 'events'])
        expect([list, sources.tecRequests.filter((r) => r.startsWith(`${list}:`))]).toEqual([
          list,
          [`${list}:1`, `${list}:2`],
        ]);
    } finally {
      sources.shortAfter = null;
    }
  });

  it('does not read again unchanged the source under which an instance died, and counts the death as a failure', async () => {
    sources.feed = feedOf(2);
    const id = await subscribe(a, { kind: 'ical', url: `${sources.origin}/feed.ics` });
    // What an instance killed in the middle of this feed leaves: its run `running`, with what it had read.
    const dead = await a.dataSource.manager.save(ImportRunEntity, {
      subscriptionId: id,
      trigger: 'schedule',
      status: 'running',
      startedUtc: '2031-01-01 00:00:00',
      finishedUtc: null,
      sourceDigest: new SourceDigest().add(createHash('sha256').update(sources.feed).digest('hex')),
      crashed: false,
      report: '{}',
    });
    const refused = await runOf(b, id);
    expect(refused).toMatchObject({ status: 'failed', crashed: true, created: 0 });
    expect(refused.failed[0].reason).toMatch(
      new RegExp(
        `^not run again over an unchanged source: run ${dead.id} read the same and failed \\(the instance running this import stopped`,
      ),
    );
    expect((await api(b, 'get', `/imports/${id}/runs/${dead.id}`).expect(200)).body).toMatchObject({
      status: 'failed',
      crashed: true,
    });
    expect((await api(b, 'get', `/imports/${id}`).expect(200)).body).toMatchObject({ failed_runs: 2 });
    // Once the source changes, it runs.
    sources.feed = feedOf(3);
    expect(await runOf(b, id)).toMatchObject({ status: 'succeeded', created: 3, crashed: false });
  });

  it('suspends a subscription after IMPORTS_SUSPEND_AFTER failed runs in a row, saying why, until it is resumed', async () => {
    const id = await subscribe(a, { kind: 'ical', url: `${sources.origin}/missing.ics` });
    for (const failedRuns of [1, 2, 3]) {
      expect(await runOf(a, id)).toMatchObject({ status: 'failed', crashed: false });
      expect((await api(a, 'get', `/imports/${id}`).expect(200)).body.failed_runs).toBe(failedRuns);
    }
    const suspended = (await api(a, 'get', `/imports/${id}`).expect(200)).body;
    expect(suspended).toMatchObject({ enabled: true, failed_runs: 3, suspended_utc: expect.any(String) });
    expect(suspended.suspended_reason).toMatch(/^suspended after 3 failed runs in a row; the last: .*404/);
    // The scheduler passes it by, however overdue it is.
    await a.dataSource.manager.update(ImportSubscriptionEntity, { id }, { nextRunUtc: '2000-01-01 00:00:00' });
    expect(await a.app.get(ImportSubscriptions).due(1000)).not.toContain(id);
    const resumed = (await api(a, 'patch', `/imports/${id}`).send({ enabled: true }).expect(200)).body;
    expect(resumed).toMatchObject({ failed_runs: 0, suspended_reason: null, suspended_utc: null });
    expect(await a.app.get(ImportSubscriptions).due(1000)).toContain(id);
  });

  /** A run on instance a of a feed that holds every request: it stays `running` until it is stopped. */
  async function heldRun(): Promise<{ id: number; started: StartedRun }> {
    sources.holdFeed = true;
    const id = await subscribe(a, { kind: 'ical', url: `${sources.origin}/feed.ics` });
    const started = await a.app.get(ImportSubscriptions).startNow(id);
    expect(started.run.status).toBe('running');
    return { id, started };
  }

  it('stops a run within seconds when another instance disables its subscription, recording it cancelled', async () => {
    try {
      const { id, started } = await heldRun();
      await api(b, 'patch', `/imports/${id}`).send({ enabled: false }).expect(200);
      // Instance a learns of it only through the database: its run ends on its own, without a release.
      expect((await started.finished).status).toBe('cancelled');
      const run = (await api(b, 'get', `/imports/${id}/runs/${started.run.id}`).expect(200)).body as RunBody;
      expect(run.status).toBe('cancelled');
      expect(run.failed[0].reason).toMatch(/^cancelled/);
    } finally {
      sources.holdFeed = false;
    }
  });

  it('stops a run when its subscription is deleted: the answer shows the run cancelled', async () => {
    try {
      const { id, started } = await heldRun();
      const deleted = await api(b, 'delete', `/imports/${id}`).expect(200);
      expect(deleted.body.last_run).toMatchObject({ id: started.run.id, status: 'cancelled' });
      await api(a, 'get', `/imports/${id}`).expect(404);
    } finally {
      sources.holdFeed = false;
    }
  });
});
