import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { dirname } from 'node:path';
import { buildIdentity, identityOf } from '../../src/operations/build-identity';
import { EventDocuments } from '../../src/modules/events/derived/documents/event-documents.service';
import { copyOfBuild, type BuildCopy } from '../support/build-copy';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { countDocumentWrites } from '../support/document-writes';
import { postEvent } from '../support/events';
import { freePort, ServiceProcess } from '../support/service-process';
import { documentsSettled } from '../support/statements';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { createUser } from '../support/users';

const ns = '/cal/events/v1';
const TEC = '/wp-json/tribe/events/v1';
const LIST = `${ns}/events?start_date=2031-03-01&end_date=2031-03-31&per_page=50`;
const EVENTS = 6;
/** Both builds alike, but for the one helper: no response cache, so every read is answered afresh. */
const ENV = { RESPONSE_CACHE_MB: '0' };

/**
 * Everything derived (stored documents, the word index, feeds' validators) is keyed on the identity of the whole
 * build. Here a second build, a copy of this one with one character of a helper the mapper calls three calls
 * deep changed (`formatCost`'s range separator), runs as its own process on the same database as this one: a
 * rolling deploy. It must serve no document of the old shape, this build none of the new, and neither may turn
 * the other's reads into writes.
 */
describe('one identity for everything derived: two builds on one database', () => {
  let database: TestDatabase;
  let a: TestApp;
  let copy: BuildCopy;
  let b: ServiceProcess;
  let origin: string;

  const costsOnA = async () =>
    ((await a.http.get(LIST).expect(200)).body.events as { cost: string }[]).map((e) => e.cost);
  const listOnB = async () => {
    const res = await fetch(`${origin}${LIST}`);
    expect(res.status).toBe(200);
    return (await res.json()) as { events: { id: number; cost: string }[] };
  };
  const formats = async () =>
    (await a.dataSource.query<{ format: string }[]>('SELECT format FROM event_document_formats ORDER BY format')).map(
      (r) => r.format,
    );
  const bodiesOf = async (format: string) =>
    Number(
      (
        await a.dataSource.query<{ n: number }[]>('SELECT COUNT(*) AS n FROM event_document_bodies WHERE format = ?', [
          format,
        ])
      )[0].n,
    );

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: true });
    a = await createTestApp({ database, env: ENV });
    const editor = await createUser(a, 'editor');
    for (let i = 1; i <= EVENTS; i++) {
      await postEvent(a, editor.auth, {
        title: `Priced ${i}`,
        cost: `${10 * i} - ${10 * i + 5}`,
        start_date: `2031-03-0${i} 18:00:00`,
        end_date: `2031-03-0${i} 20:00:00`,
      });
    }
    // This build's documents, stored before the other build starts.
    await costsOnA();
    await documentsSettled(a);
    copy = copyOfBuild({ file: 'src/modules/events/model/event-cost.js', from: '} – ${', to: '} to ${' });
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    b = new ServiceProcess({ ...ENV, DATABASE_URL: database.url, PORT: String(port) }, { entry: copy.main });
    await b.until(() => b.listening().length > 0);
  });

  afterAll(async () => {
    b?.child.kill('SIGTERM');
    await b?.exited;
    await a?.close();
    copy?.remove();
    await database?.drop();
  });

  it('gives the changed build another identity, though only a helper three calls from the mapper changed', () => {
    expect(identityOf(dirname(dirname(copy.main)), [])).not.toBe(buildIdentity());
  });

  it('serves no document of the old shape from the new build, nor of the new shape from the old', async () => {
    const mine = a.app.get(EventDocuments, { strict: false }).format;
    expect(await bodiesOf(mine)).toBe(EVENTS);
    const first = await listOnB();
    expect(first.events.map((e) => e.cost)).toEqual(
      Array.from({ length: EVENTS }, (_, i) => `$${10 * (i + 1)} to $${10 * (i + 1) + 5}`),
    );
    // The other build stores its own bodies beside these (its reads asked for them).
    // Each build names its native format and its TEC alias's (`<format>-tec`).
    const others = (await formats()).filter((f) => !f.startsWith(mine));
    expect(others.map((f) => f.replace(/-tec$/, '<alias>'))).toEqual([others[0], `${others[0]}<alias>`]);
    const theirs = [others[0]];
    // Its bodies are built after its answers: each read of the list asks again for those still missing, until
    // all are there (no waiting on the clock).
    while ((await bodiesOf(theirs[0])) < EVENTS) expect(await listOnB()).toEqual(first);
    // And served from them, the same.
    expect(await listOnB()).toEqual(first);
    expect(await costsOnA()).toEqual(
      Array.from({ length: EVENTS }, (_, i) => `$${10 * (i + 1)} – $${10 * (i + 1) + 5}`),
    );
    expect(await bodiesOf(mine)).toBe(EVENTS);
  });

  it('keeps reads reads: 100 uncached lists, 20 through the TEC alias and 20 single reads, alternating builds, write no row', async () => {
    const aliasOnA = async () => (await a.http.get(LIST.replace(ns, TEC)).expect(200)).body as { events: unknown[] };
    const aliasOnB = async () => (await (await fetch(`${origin}${LIST.replace(ns, TEC)}`)).json()) as { events: [] };
    const mine = a.app.get(EventDocuments, { strict: false }).format;
    await costsOnA();
    await listOnB();
    await aliasOnA();
    await aliasOnB();
    await documentsSettled(a);
    // The other build's alias bodies are built after its answers, as its native ones are.
    const aliasBodiesOfB = async () => bodiesOf(`${(await formats()).find((f) => !f.startsWith(mine))!}-tec`);
    while ((await aliasBodiesOfB()) < EVENTS) await aliasOnB();
    const writes = await countDocumentWrites((sql) => a.dataSource.query(sql), database.kind);
    const ids = (await listOnB()).events.map((e) => e.id);
    for (let i = 0; i < 50; i++) {
      expect((await listOnB()).events).toHaveLength(EVENTS);
      expect(await costsOnA()).toHaveLength(EVENTS);
      if (i % 5 === 0) {
        expect((await aliasOnB()).events).toHaveLength(EVENTS);
        expect((await aliasOnA()).events).toHaveLength(EVENTS);
      }
    }
    for (const id of [...ids, ...ids].slice(0, 10)) {
      expect((await fetch(`${origin}${ns}/events/${id}`)).status).toBe(200);
      await a.http.get(`${ns}/events/${id}`).expect(200);
    }
    await documentsSettled(a);
    expect(await writes()).toBe(0);
  });
});
