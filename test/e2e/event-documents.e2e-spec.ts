import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DocumentFormat } from '../../src/modules/events/derived/documents/document-format';
import { EventDocuments } from '../../src/modules/events/derived/documents/event-documents.service';
import type { RequestContext } from '../../src/common/http/request-context';
import { EventObjectsService } from '../../src/modules/events/model/event-objects.service';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { documentsSettled, storedBody as storedBodyOf } from '../support/statements';
import { createTestDatabase } from '../support/test-database';
import { HOST, TwoInstances, WINDOW, type EventJson } from '../support/two-instances';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';

/**
 * The event read model: reads answer from stored documents once they are built, with the caller's own
 * URLs and the terms' current counts, and after every kind of write the next read on either of two
 * instances shows the change (the response cache is off, so nothing else could answer).
 */
describe('event documents', () => {
  let f: TwoInstances;
  let a: TestApp;
  let b: TestApp;
  let editor: TestUser;
  let eventId: number;
  let venueId: number;
  let organizerId: number;
  let categoryId: number;

  beforeAll(async () => {
    f = await TwoInstances.start({ RESPONSE_CACHE_MB: '0' });
    ({ a, b, editor, eventId, venueId, organizerId, categoryId } = f);
  });
  afterAll(() => f.close());

  const listOn = (t: TestApp, auth: string | undefined, path?: string) => f.listOn(t, auth, path);
  const singleOn = (t: TestApp, auth: string | undefined, id?: number, path?: string) => f.singleOn(t, auth, id, path);
  const expectEverywhere: TwoInstances['expectEverywhere'] = (expectation) => f.expectEverywhere(expectation);
  const inList = (list: EventJson[]) => f.inList(list);

  async function storedBody(id = eventId): Promise<string | null> {
    return (await storedBodyOf(a, id))?.body ?? null;
  }

  /** Reads the event everywhere, waits for its document, and proves the next reads answer from it. */
  async function primeDocuments(): Promise<void> {
    await listOn(a, undefined);
    await singleOn(b, undefined);
    await documentsSettled(a);
    await documentsSettled(b);
    expect(await storedBody()).toMatch(/^\{"id":/);
  }

  it('answers from the document exactly what assembling the event answered, with the caller’s URLs', async () => {
    const listBytes = async () => {
      const res = await a.http.get(`${ns}/events?${WINDOW}`).set('Host', HOST).expect(200);
      return { text: res.text, etag: res.headers['etag'], type: res.headers['content-type'] };
    };
    // A read with no document assembles the event: each such read starts from emptied documents, since
    // the one before it has its document built in the background.
    const assembledBy = async <T>(read: () => Promise<T>): Promise<T> => {
      await documentsSettled(a);
      await documentsSettled(b);
      await a.dataSource.query('DELETE FROM event_document_bodies');
      return read();
    };
    const assembled = await assembledBy(() => singleOn(a, undefined));
    const assembledList = await assembledBy(async () => inList(await listOn(a, undefined)));
    const assembledListBytes = await assembledBy(listBytes);
    await primeDocuments();
    // The list splices each document's text among the envelope's JSON: the same bytes as assembled.
    expect(await listBytes()).toEqual(assembledListBytes);
    const stored = await singleOn(a, undefined);
    expect(stored.body).toEqual(assembled.body);
    // The document goes out as its text: the very bytes, so the same strong ETag and Content-Type.
    expect(stored.text).toBe(assembled.text);
    expect(stored.etag).toBe(assembled.etag);
    expect(stored.contentType).toBe(assembled.contentType);
    expect(inList(await listOn(b, undefined))).toEqual(assembledList);
    // Another origin, a language segment, an odd host: the placeholders take each request's own.
    const other = await a.http.get(`/de${ns}/events/${eventId}`).set('Host', 'Other.Example:8080');
    expect(other.status).toBe(200);
    const body = other.body as EventJson;
    // URLs keep the Host header as sent; the global id takes the URL's (lower-cased) host, as assembled.
    expect(body.url).toBe('http://Other.Example:8080/event/harbour-concert/');
    expect(body.rest_url).toBe(`http://Other.Example:8080/de${ns}/events/${eventId}`);
    expect(body.global_id).toBe(`other.example:8080?id=${eventId}`);
    expect(body.categories[0].urls.self).toBe(`http://Other.Example:8080/de${ns}/categories/${categoryId}`);
    expect(body.json_ld?.url).toBe(body.url);
    expect(JSON.stringify(body)).not.toContain('calendar.test');
  });

  it('shows the terms’ current counts, which change without a change to the event', async () => {
    await primeDocuments();
    const before = (await singleOn(a, undefined)).body.categories[0].count;
    await postEvent(b, editor.auth, { title: 'Second concert', categories: ['Concerts'] });
    expect(await storedBody()).toMatch(/^\{"id":/);
    await expectEverywhere((list, single) => {
      expect(inList(list)?.categories[0].count).toBe(before + 1);
      expect(single.body.categories[0].count).toBe(before + 1);
    });
  });

  it('fills the counts of an event with hundreds of terms, more than MySQL’s default group_concat_max_len', async () => {
    // A write names at most 100 of each taxonomy: 100 tags and 100 categories make 200 terms.
    const names = Array.from({ length: 100 }, (_, i) => `many-terms-${String(i).padStart(3, '0')}`);
    const crowded = await postEvent(a, editor.auth, { title: 'Crowded', tags: names, categories: names });
    await postEvent(a, editor.auth, { title: 'Crowded too', tags: names.slice(0, 10), categories: names.slice(0, 10) });
    await singleOn(a, undefined, crowded.id);
    await documentsSettled(a);
    expect(await storedBody(crowded.id)).toMatch(/^\{"id":/);
    const read = await singleOn(b, undefined, crowded.id);
    const terms = [...read.body.tags, ...read.body.categories] as { id: number; slug: string; count: number }[];
    // The row's `id:count;` pairs, as GROUP_CONCAT writes them: past MySQL's default 1,024 bytes.
    expect(terms.map((t) => `${t.id}:${t.count};`).join('').length).toBeGreaterThan(1024);
    for (const taxonomy of [read.body.tags, read.body.categories] as { slug: string; count: number }[][]) {
      const counts = new Map(taxonomy.map((term) => [term.slug, term.count]));
      expect(counts.size).toBe(100);
      for (const [index, name] of names.entries()) {
        expect([name, counts.get(name)]).toEqual([name, index < 10 ? 2 : 1]);
      }
    }
  });

  it('sees an event edit made on the other instance', async () => {
    await primeDocuments();
    await b.http
      .post(`${ns}/events/${eventId}`)
      .set('Authorization', editor.auth)
      .send({ title: 'Harbour concert (moved indoors)' })
      .expect(200);
    // Emptied in the write's own transaction.
    expect(await storedBody()).toBeNull();
    await expectEverywhere((list, single) => {
      expect(inList(list)?.title).toBe('Harbour concert (moved indoors)');
      expect(single.body.title).toBe('Harbour concert (moved indoors)');
    });
    await primeDocuments();
    expect((await singleOn(a, undefined)).body.title).toBe('Harbour concert (moved indoors)');
  });

  it('takes the ETag of an answer sent from the document as the If-Match of the next write', async () => {
    await primeDocuments();
    const read = await singleOn(a, editor.auth);
    expect(read.etag).toMatch(/^"/);
    const write = (etag: string) =>
      a.http
        .post(`${ns}/events/${eventId}`)
        .set('Host', HOST)
        .set('Authorization', editor.auth)
        .set('If-Match', etag)
        .send({ excerpt: `Checked ${etag.length}` });
    await write(read.etag!).expect(200);
    // The write moved the event on: the same tag now names a copy that is no longer current.
    await write(read.etag!).expect(412);
  });

  it('sees a venue rename, an organizer’s new email and a category rename in what the event embeds', async () => {
    await primeDocuments();
    await a.http.post(`${ns}/venues/${venueId}`).set('Authorization', editor.auth).send({ venue: 'Dock Hall' });
    await primeDocuments();
    await b.http
      .post(`${ns}/organizers/${organizerId}`)
      .set('Authorization', editor.auth)
      .send({ email: 'new@example.org' })
      .expect(200);
    await primeDocuments();
    await a.http
      .post(`${ns}/categories/${categoryId}`)
      .set('Authorization', editor.auth)
      .send({ name: 'Live music' })
      .expect(200);
    expect(await storedBody()).toBeNull();
    await expectEverywhere((list, single) => {
      for (const event of [inList(list)!, single.body]) {
        expect((event.venue as { venue: string }).venue).toBe('Dock Hall');
        expect(event.organizer[0].email).toBe('new@example.org');
        expect(event.categories[0].name).toBe('Live music');
      }
    });
  });

  it('keeps no document for an event whose venue only editors may see, and shows each caller theirs', async () => {
    await primeDocuments();
    await a.http
      .post(`${ns}/venues/${venueId}`)
      .set('Authorization', editor.auth)
      .send({ status: 'draft' })
      .expect(200);
    await expectEverywhere((list, single, caller) => {
      const expected = caller === 'anonymous' ? [] : expect.objectContaining({ venue: 'Dock Hall' });
      expect(inList(list)?.venue).toEqual(expected);
      expect(single.body.venue).toEqual(expected);
    });
    await documentsSettled(a);
    await documentsSettled(b);
    // Built, found not the same for every caller: kept empty until the event next changes.
    expect(await storedBody()).toBe('');
    await a.http
      .post(`${ns}/venues/${venueId}`)
      .set('Authorization', editor.auth)
      .send({ status: 'publish' })
      .expect(200);
    await primeDocuments();
    expect(((await singleOn(b, undefined)).body.venue as { venue: string }).venue).toBe('Dock Hall');
  });

  it('answers the reference dialect in its own names, document or not', async () => {
    await primeDocuments();
    const tec = await singleOn(a, undefined, eventId, '/wp-json/tribe/events/v1/events');
    expect(tec.status).toBe(200);
    expect(tec.body.categories[0].taxonomy).toBe('tribe_events_cat');
    expect(tec.body.rest_url).toBe(`http://${HOST}/wp-json/tribe/events/v1/events/${eventId}`);
    const native = await singleOn(a, undefined);
    expect(native.body.categories[0].taxonomy).toBe('cal_events_cat');
  });

  it('serves the TEC alias from bodies of its own, byte for byte what assembling it answers', async () => {
    const TEC = '/wp-json/tribe/events/v1/events';
    // Characters WordPress escapes in titles and term names, which the alias shows escaped and the native API not.
    const escaped = await postEvent(a, editor.auth, {
      title: 'Rock & "Roll" <live>',
      start_date: '2030-06-01 20:00:00',
      end_date: '2030-06-01 23:00:00',
      categories: ['R&B <soul>'],
    });
    const reads = async () => ({
      single: await singleOn(a, undefined, escaped.id, TEC),
      list: await a.http.get(`${TEC}?${WINDOW}`).set('Host', HOST).expect(200),
    });
    await documentsSettled(a);
    await a.dataSource.query('DELETE FROM event_document_bodies');
    const assembled = await reads();
    await documentsSettled(a);
    // The alias's reads filled the alias's bodies, and only those.
    expect(await storedBodyOf(a, escaped.id, 'tec').then((row) => row?.body ?? null)).toMatch(/^\{"id":/);
    expect(await storedBodyOf(a, escaped.id, 'cal').then((row) => row?.body ?? null)).toBeNull();
    const stored = await reads();
    expect(stored.single.text).toBe(assembled.single.text);
    expect(stored.single.etag).toBe(assembled.single.etag);
    expect(stored.list.text).toBe(assembled.list.text);
    expect(stored.single.body.title).toBe('Rock &#038; &quot;Roll&quot; &lt;live&gt;');
    expect(stored.single.body.categories[0]).toMatchObject({ taxonomy: 'tribe_events_cat' });
    // The native API fills its own bodies, which show the title as written.
    await singleOn(a, undefined, escaped.id);
    await documentsSettled(a);
    expect(await storedBodyOf(a, escaped.id, 'cal').then((row) => row?.body ?? null)).toMatch(/^\{"id":/);
    expect((await singleOn(a, undefined, escaped.id)).body.title).toBe('Rock & "Roll" <live>');
    expect((await singleOn(a, undefined, escaped.id, TEC)).text).toBe(assembled.single.text);
  });

  it('blanks the event for outsiders as soon as a password is set, and builds no document for it', async () => {
    await primeDocuments();
    await b.http
      .post(`${ns}/events/${eventId}`)
      .set('Authorization', editor.auth)
      .send({ password: 'open sesame' })
      .expect(200);
    await expectEverywhere((list, single, caller) => {
      if (caller === 'anonymous') {
        expect(inList(list)?.description).toBe('');
        expect(single.status).toBe(403);
      } else {
        expect(inList(list)?.description).toContain('Brass on the pier');
        expect(single.status).toBe(200);
      }
    });
    await documentsSettled(a);
    expect(await storedBody()).toBeNull();
    await b.http.post(`${ns}/events/${eventId}`).set('Authorization', editor.auth).send({ password: '' }).expect(200);
  });

  it('sweeps the bodies of a build gone for a day, its alias bodies too, and keeps both of its own', async () => {
    await primeDocuments();
    await singleOn(a, undefined, eventId, '/wp-json/tribe/events/v1/events');
    await documentsSettled(a);
    const documents = a.app.get(EventDocuments, { strict: false });
    const own = [documents.formatOf('cal'), documents.formatOf('tec')];
    const gone = ['0123456789abcdef0123456789abcdef', '0123456789abcdef0123456789abcdef-tec'];
    const recent = 'fedcba9876543210fedcba9876543210';
    const longAgo = '2000-01-01 00:00:00';
    for (const format of [...gone, recent]) {
      await a.dataSource.query('INSERT INTO event_document_formats (format, seen_utc) VALUES (?, ?)', [
        format,
        format === recent ? '2999-01-01 00:00:00' : longAgo,
      ]);
      await a.dataSource.query(
        `INSERT INTO event_document_bodies (post_id, format, generation, object_json, json_ld, valid_until_utc)
         VALUES (?, ?, 0, '{}', '{}', NULL)`,
        [eventId, format],
      );
    }
    // This process's own formats, as if they too had been named long ago: never its own to sweep.
    await a.dataSource.query('UPDATE event_document_formats SET seen_utc = ? WHERE format IN (?, ?)', [
      longAgo,
      ...own,
    ]);
    expect(await a.app.get(DocumentFormat, { strict: false }).sweep()).toBe(2);
    const left = await a.dataSource.query<{ format: string }[]>(
      'SELECT format FROM event_document_bodies WHERE post_id = ? ORDER BY format',
      [eventId],
    );
    expect(left.map((r) => r.format)).toEqual([...own, recent].sort());
  });

  it('never stores a document built from rows that changed before it could be stored', async () => {
    await primeDocuments();
    await a.http.post(`${ns}/events/${eventId}`).set('Authorization', editor.auth).send({ title: 'Version one' });
    const documents = a.app.get(EventDocuments, { strict: false });
    // Built from "Version one", then the event changes before the build is stored, as a fill racing a write.
    const built = await documents.build([eventId]);
    expect(built).toHaveLength(1);
    await b.http.post(`${ns}/events/${eventId}`).set('Authorization', editor.auth).send({ title: 'Version two' });
    await documents.store(built);
    expect(await storedBody()).toBeNull();
    for (const t of [a, b]) expect((await singleOn(t, undefined)).body.title).toBe('Version two');
    // Without a change in between, the same build lands.
    await documents.store(await documents.build([eventId]));
    expect(await storedBody()).toContain('Version two');
  });

  it('drops a trashed event from every list and single read', async () => {
    await primeDocuments();
    await a.http.delete(`${ns}/events/${eventId}`).set('Authorization', editor.auth).expect(200);
    await expectEverywhere((list, single) => {
      expect(inList(list)).toBeUndefined();
      expect(single.status).toBe(403);
    });
    await a.http.delete(`${ns}/events/${eventId}?force=true`).set('Authorization', editor.auth).expect(200);
    const rows = await a.dataSource.query<unknown[]>('SELECT post_id FROM event_documents WHERE post_id = ?', [
      eventId,
    ]);
    expect(rows).toEqual([]);
  });
});

/**
 * A change of the event representation (a field added by code, a module or a patch) must never meet a
 * document of the old shape, nor a document built for the public meet a caller whose representation differs.
 */
describe('event documents: the representation changes', () => {
  type Built = { object: Record<string, unknown> }[];
  const original = EventObjectsService.prototype.fromRecords;
  /** Adds `field(ctx)` to every event object the service builds, for the apps created while it is in place. */
  function reshape(field: string, value: (ctx: RequestContext) => unknown): void {
    EventObjectsService.prototype.fromRecords = async function (this: EventObjectsService, ...args) {
      const built = (await original.apply(this, args)) as unknown as Built;
      for (const b of built) b.object[field] = value(args[1]);
      return built as never;
    };
  }
  afterAll(() => {
    EventObjectsService.prototype.fromRecords = original;
  });

  const titlesWith = async (t: TestApp, field: string, auth?: string) => {
    const req = t.http.get(`${ns}/events?start_date=2031-01-01&end_date=2031-12-31&per_page=50`);
    const res = await (auth ? req.set('Authorization', auth) : req).expect(200);
    return (res.body.events as Record<string, unknown>[]).map((e) => [e.title, e[field]]);
  };

  it('serves no document of the old shape once a field is added', async () => {
    const database = await createTestDatabase();
    const before = await createTestApp({ database, env: { RESPONSE_CACHE_MB: '0' } });
    const editor = await createUser(before, 'editor');
    for (const title of ['Old shape 1', 'Old shape 2', 'Old shape 3']) {
      await postEvent(before, editor.auth, { title, start_date: '2031-05-01 10:00', end_date: '2031-05-01 11:00' });
    }
    await titlesWith(before, 'title');
    await documentsSettled(before);
    await before.close();
    reshape('shape_probe', () => 'new');
    const after = await createTestApp({ database, env: { RESPONSE_CACHE_MB: '0' } });
    try {
      expect(await titlesWith(after, 'shape_probe')).toEqual([
        ['Old shape 1', 'new'],
        ['Old shape 2', 'new'],
        ['Old shape 3', 'new'],
      ]);
      await documentsSettled(after);
      expect((await titlesWith(after, 'shape_probe')).map(([, probe]) => probe)).toEqual(['new', 'new', 'new']);
    } finally {
      EventObjectsService.prototype.fromRecords = original;
      await after.close();
      await database.drop();
    }
  });

  it('shows a caller-dependent field to each caller, documents filled or not', async () => {
    reshape('viewer', (ctx) => ctx.user?.login ?? null);
    const t = await createTestApp({ env: { RESPONSE_CACHE_MB: '0' } });
    try {
      const editor = await createUser(t, 'editor');
      await postEvent(t, editor.auth, {
        title: 'Viewed',
        start_date: '2031-06-01 10:00',
        end_date: '2031-06-01 11:00',
      });
      await titlesWith(t, 'viewer');
      await documentsSettled(t);
      expect(await titlesWith(t, 'viewer', editor.auth)).toEqual([['Viewed', editor.login]]);
      expect(await titlesWith(t, 'viewer')).toEqual([['Viewed', null]]);
    } finally {
      EventObjectsService.prototype.fromRecords = original;
      await t.close();
    }
  });
});
