import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, EXAMPLE_EXTENSIONS, registeredModules, type TestApp } from '../support/create-test-app';
import { cliWith } from '../support/run-cli';
import { runImport } from '../support/imports';
import { createUser, type TestUser } from '../support/users';

type Json = Record<string, unknown>;
const HOME = '/cal/events/v1';
const FIXTURES = join(process.cwd(), 'test', 'fixtures', 'csv');

/** The error a `--json` command prints on stderr. */
const errorOf = (stderr: string): string => (JSON.parse(stderr) as { error: string }).error;

describe('import:csv', () => {
  let t: TestApp;
  let admin: TestUser;
  const dir = mkdtempSync(join(tmpdir(), 'csv-import-'));
  const cli = (env: Record<string, string>, ...args: string[]) => runImport(t, ['import:csv', ...args], env);
  const run = (...args: string[]) => cli({}, ...args);
  const list = async (restBase: string, query: Record<string, string | number> = {}) =>
    (
      await t.http
        .get(`${HOME}/${restBase}`)
        .query({ per_page: 100, ...query })
        .set('Authorization', admin.auth)
        .expect(200)
    ).body[restBase] as Json[];
  const allEvents = () => list('events', { start_date: '2000-01-01', status: 'publish,draft,pending,private' });
  const file = (name: string, text: string | Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { SITE_TIMEZONE: 'UTC' } });
    admin = await createUser(t, 'administrator');
  });
  afterAll(async () => {
    await t?.close();
  });

  it("imports TEC's venue and organizer layouts field by field, and a second run changes nothing", async () => {
    const venues = await run(join(FIXTURES, 'tec-venues.csv'), '--type', 'venues');
    expect(venues.summary).toMatchObject({ created: 3, failed: [] });
    expect(venues.summary.notes).toEqual([{ id: 'columns', reason: expect.stringContaining('VENUE ADDRESS 2') }]);
    const philharmonie = (await list('venues')).find((v) => v.venue === 'Philharmonie Berlin')!;
    expect(philharmonie).toMatchObject({
      address: 'Herbert-von-Karajan-Straße 1',
      city: 'Berlin',
      country: 'Germany',
      stateprovince: 'Berlin',
      zip: '10785',
      phone: '+49 30 254880',
      website: 'https://www.berliner-philharmoniker.de',
      description: 'Home of the <strong>Berliner Philharmoniker</strong>',
    });
    const organizers = await run(join(FIXTURES, 'tec-organizers.csv'), '--type', 'organizers');
    expect(organizers.summary).toMatchObject({ created: 2, failed: [] });
    expect((await list('organizers')).map((o) => [o.organizer, o.email]).sort()).toEqual([
      ['Code & Coffee', 'hello@codeandcoffee.example.com'],
      ['Night Owls', 'owls@example.org'],
    ]);
    expect((await run(join(FIXTURES, 'tec-venues.csv'), '--type', 'venues')).summary).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 3,
    });
  });

  it("imports TEC's event layout: times in their zones, all-day, links by name, terms, cost, flags", async () => {
    const events = await run(join(FIXTURES, 'tec-events.csv'), '--type', 'events');
    expect(events.summary).toMatchObject({ created: 4, failed: [] });
    expect(events.summary.notes[0].reason).toContain('EVENT ISO CURRENCY CODE');
    const byTitle = Object.fromEntries((await allEvents()).map((e) => [e.title, e]));
    // Hidden from listings, as the file says: read by its id.
    const [{ id: hidden }] = await t.dataSource.query<{ id: number }[]>(
      "SELECT id FROM posts WHERE type = 'cal_event' AND title = ?",
      ['Bowling league'],
    );
    byTitle['Bowling league'] = (
      await t.http.get(`${HOME}/events/${hidden}`).set('Authorization', admin.auth).expect(200)
    ).body as Json;
    expect(byTitle['Jazz Night']).toMatchObject({
      start_date: '2027-03-12 19:30:00',
      end_date: '2027-03-12 22:00:00',
      timezone: 'Europe/Berlin',
      utc_start_date: '2027-03-12 18:30:00',
      all_day: false,
      sticky: true,
      hide_from_listings: false,
      website: 'https://example.org/jazz',
      excerpt: 'An evening of jazz',
      venue: { venue: 'Philharmonie Berlin' },
      organizer: [{ organizer: 'Night Owls' }],
    });
    expect((byTitle['Jazz Night'].cost_details as Json).values).toEqual(['15']);
    expect(byTitle['Jazz Night'].cost).toBe('15€');
    expect((byTitle['Jazz Night'].categories as Json[]).map((c) => c.name).sort()).toEqual(['Jazz', 'Music']);
    expect((byTitle['Jazz Night'].tags as Json[]).map((c) => c.name).sort()).toEqual(['evening', 'live music']);
    expect(byTitle['Book fair']).toMatchObject({
      all_day: true,
      start_date: '2027-04-02 00:00:00',
      end_date: '2027-04-04 23:59:59',
      cost: 'Free',
    });
    expect(byTitle['Bowling league']).toMatchObject({
      start_date: '2027-05-06 19:00:00',
      end_date: '2027-05-06 22:30:00',
      utc_start_date: '2027-05-06 23:00:00',
      hide_from_listings: true,
      cost: '$20',
    });
    expect((byTitle['Bowling league'].organizer as Json[]).map((o) => o.organizer)).toEqual([
      'Night Owls',
      'Code & Coffee',
    ]);
    // Linked by name to the venues and organizers imported before: none made twice.
    expect(await list('venues')).toHaveLength(3);
    expect(await list('organizers')).toHaveLength(2);
    expect((await run(join(FIXTURES, 'tec-events.csv'), '--type', 'events')).summary).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 4,
    });
  });

  it('updates a changed row on the next import of any file, and previews it first', async () => {
    const edited = readFileSync(join(FIXTURES, 'tec-events.csv'), 'utf8').replace('Three days of books.', 'Four days.');
    const path = file('edited.csv', edited);
    const preview = await run(path, '--type', 'events', '--dry-run');
    expect(preview.summary.preview).toEqual([{ id: 'row 3', outcome: 'updated', title: 'Book fair' }]);
    expect((await run(path, '--type', 'events')).summary).toMatchObject({ created: 0, updated: 1, unchanged: 3 });
    expect((await allEvents()).find((e) => e.title === 'Book fair')?.description).toBe('Four days.');
    // Trashed here by an editor: the next import passes it by, in the ignored records until cleared.
    const bookFair = (await allEvents()).find((e) => e.title === 'Book fair')!;
    await t.http
      .delete(`${HOME}/events/${Number(bookFair.id)}`)
      .set('Authorization', admin.auth)
      .expect(200);
    expect((await run(path, '--type', 'events')).summary).toMatchObject({
      created: 0,
      updated: 0,
      skipped: [
        { id: expect.stringContaining('book fair|2027-04-02'), reason: expect.stringContaining('trashed here') },
      ],
    });
    const ignored = await cliWith(
      { DATABASE_URL: t.database.url, LOG_LEVEL: 'silent' },
      'import:ignored',
      'csv',
      'events',
      '--clear',
      '--json',
    );
    expect(JSON.parse(ignored.stdout)).toEqual({ source: 'csv:events', cleared: 1 });
    expect((await run(path, '--type', 'events')).summary).toMatchObject({ created: 0, updated: 1, skipped: [] });
  });

  it('names each bad row by line and column, writes the good rows whole, and none of a bad one', async () => {
    const path = file(
      'bad-rows.csv',
      [
        'Event Name,Event Start Date,Event Start Time,Event End Date,Event End Time,Event Website,Timezone',
        'Good one,2027-08-01,10:00,2027-08-01,11:00,,UTC',
        'No day,2027-02-30,10:00,,,,UTC',
        'Bad site,2027-08-02,10:00,2027-08-02,11:00,not a url,UTC',
        'Backwards,2027-08-03,10:00,2027-08-03,09:00,,UTC',
        'Nowhere,2027-08-04,10:00,,,,Mars/Olympus',
      ].join('\n'),
    );
    const before = (await allEvents()).length;
    const out = await run(path, '--type', 'events');
    expect(out.code).toBe(1);
    expect(out.summary.created).toBe(1);
    expect(out.summary.failed).toEqual([
      { id: 'row 3', reason: expect.stringMatching(/^Event Start Date: "2027-02-30" is not a day/) },
      { id: 'row 4', reason: 'Event Website: must be an http(s) URL' },
      { id: 'row 5', reason: expect.stringMatching(/^Event End Date: must not be before start_date/) },
      { id: 'row 6', reason: expect.stringMatching(/^Timezone: must be a time zone/) },
    ]);
    expect((await allEvents()).length).toBe(before + 1);
  });

  it('refuses a whole file it cannot read, writing nothing', async () => {
    const before = (await allEvents()).length;
    const latin1 = file(
      'latin1.csv',
      Buffer.from('Event Name,Event Start Date\nCaf\xe9 concert,2027-01-01\n', 'latin1'),
    );
    const cases: [string, string][] = [
      [latin1, 'the file is not UTF-8 (byte 31, line 2): save it as CSV in UTF-8'],
      [file('utf16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Event Name', 'utf16le')])), 'UTF-16'],
      [file('no-start.csv', 'Event Name,Where\nTalk,Hall\n'), 'the file has no column for "Event Start Date"'],
      [file('quote.csv', 'Event Name,Event Start Date\n"Open quote,2027-01-01\n'), 'not CSV'],
      [file('empty.csv', ''), 'the file is empty'],
    ];
    for (const [path, message] of cases) {
      const out = await run(path, '--type', 'events');
      expect([path, out.code, errorOf(out.stderr)]).toEqual([path, 1, expect.stringContaining(message)]);
    }
    const wrongType = await run(join(FIXTURES, 'tec-events.csv'), '--type', 'tickets');
    expect(errorOf(wrongType.stderr)).toContain('--type takes events, venues, organizers');
    expect((await allEvents()).length).toBe(before);
  });

  it('refuses 100,000 rows past IMPORTS_MAX_ROWS before writing, and reads them all under a larger one', async () => {
    const rows = Array.from(
      { length: 100_000 },
      (_, i) => `Row ${i},2028-01-${String((i % 28) + 1).padStart(2, '0')},10:00`,
    );
    const path = file('large.csv', ['Event Name,Event Start Date,Event Start Time', ...rows].join('\n'));
    const before = (await allEvents()).length;
    const refused = await run(path, '--type', 'events');
    expect(errorOf(refused.stderr)).toContain('more than 50000 rows (IMPORTS_MAX_ROWS)');
    expect((await allEvents()).length).toBe(before);
    // Read whole in its worker thread, then a limit bounds what is written.
    const limited = await cli({ IMPORTS_MAX_ROWS: '100000' }, path, '--type', 'events', '--limit', '3');
    expect(limited.summary).toMatchObject({ created: 3, failed: [] });
    expect(limited.summary.skipped).toEqual([{ id: 'events', reason: expect.stringContaining('limit of 3') }]);
  });

  it("maps another layout's columns with --map, in another day order", async () => {
    const path = file('other.csv', 'Was,Wann,Von,Bis\nSommerfest,07/15/2028,3:00 PM,11:00 PM\n');
    const out = await run(
      path,
      '--type',
      'events',
      '--day-order',
      'mdy',
      '--map',
      'Was=Event Name',
      'Wann=Event Start Date',
      'Von=Event Start Time',
      'Bis=Event End Time',
    );
    expect(out.summary).toMatchObject({ created: 1, failed: [] });
    expect((await allEvents()).find((e) => e.title === 'Sommerfest')).toMatchObject({
      start_date: '2028-07-15 15:00:00',
      end_date: '2028-07-15 23:00:00',
    });
    const bad = await run(path, '--type', 'events', '--map', 'Nope=Event Name');
    expect(errorOf(bad.stderr)).toContain('--map names the column "nope"');
  });
});

describe("import:csv of a module's linked type, and events that link it", () => {
  let t: TestApp;
  let admin: TestUser;
  const dir = mkdtempSync(join(tmpdir(), 'csv-module-'));
  const run = (path: string, type: string) =>
    runImport(t, ['import:csv', path, '--type', type], { CAL_EXTENSIONS: EXAMPLE_EXTENSIONS });

  beforeAll(async () => {
    t = await createTestApp({ env: { SITE_TIMEZONE: 'UTC' }, modules: await registeredModules() });
    admin = await createUser(t, 'administrator');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('imports speakers by their own field names, and links events to them by name', async () => {
    const speakers = join(dir, 'speakers.csv');
    writeFileSync(speakers, 'speaker,affiliation,website\nAda Lovelace,Analytical Engines,https://ada.example.org\n');
    expect((await run(speakers, 'speakers')).summary).toMatchObject({ created: 1, failed: [] });
    const events = join(dir, 'events.csv');
    writeFileSync(
      events,
      'Event Name,Event Start Date,Event Start Time,speaker\nTalk,2028-02-01,10:00,"Ada Lovelace, Grace Hopper"\n',
    );
    expect((await run(events, 'events')).summary).toMatchObject({ created: 1, failed: [] });
    const list = await t.http.get(`${HOME}/speakers`).set('Authorization', admin.auth).expect(200);
    // Ada was found by her name; Grace, whom no one had imported, was made.
    expect((list.body.speakers as Json[]).map((s) => [s.speaker, s.affiliation ?? null]).sort()).toEqual([
      ['Ada Lovelace', 'Analytical Engines'],
      ['Grace Hopper', null],
    ]);
  });
});
