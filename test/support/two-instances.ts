import { createTestApp, type TestApp } from './create-test-app';
import { postEvent } from './events';
import { createUser, type TestUser } from './users';

const ns = '/cal/events/v1';
export const WINDOW = 'start_date=2030-01-01&end_date=2030-12-31';
/** Supertest listens on a new port per request; a real client keeps its host, and answers are per origin. */
export const HOST = 'calendar.test';
export const NOW = new Date('2030-03-01T12:00:00Z');

export interface EventJson {
  id: number;
  title: string;
  description: string;
  url: string;
  rest_url: string;
  global_id: string;
  // `[]` when the caller may not see the venue.
  venue: { venue: string; url: string };
  organizer: { email: string }[];
  categories: { id: number; name: string; count: number; taxonomy: string; urls: { self: string } }[];
  tags: { slug: string; count: number }[];
  json_ld?: { url: string; location?: { name: string } };
}

export interface SingleRead {
  status: number;
  body: EventJson;
  /** The bytes as sent, and the headers that describe them. */
  text: string;
  etag: string | undefined;
  contentType: string | undefined;
}

/**
 * Two instances of the service on one database, an editor, and an event with a venue, an organizer and a
 * category: for tests that write through one instance and read through both, as each caller.
 */
export class TwoInstances {
  private constructor(
    readonly a: TestApp,
    readonly b: TestApp,
    readonly editor: TestUser,
    readonly eventId: number,
    readonly venueId: number,
    readonly organizerId: number,
    readonly categoryId: number,
  ) {}

  static async start(env: Record<string, string> = {}): Promise<TwoInstances> {
    const a = await createTestApp({ now: NOW, env });
    const b = await createTestApp({ database: a.database, now: NOW, env });
    const editor = await createUser(a, 'editor');
    const event = await postEvent(a, editor.auth, {
      title: 'Harbour concert',
      description: '<p>Brass on the pier</p>',
      start_date: '2030-06-01 19:00:00',
      end_date: '2030-06-01 21:00:00',
      venue: { venue: 'Pier Hall' },
      organizer: [{ organizer: 'Harbour Society', email: 'old@example.org' }],
      categories: ['Concerts'],
    });
    return new TwoInstances(
      a,
      b,
      editor,
      event.id,
      (event.venue as { id: number }).id,
      (event.organizer as { id: number }[])[0].id,
      (event.categories as { id: number }[])[0].id,
    );
  }

  async close(): Promise<void> {
    await this.b.close();
    await this.a.close();
  }

  callers(): [string, string | undefined][] {
    return [
      ['anonymous', undefined],
      ['an editor', this.editor.auth],
    ];
  }

  async listOn(t: TestApp, auth: string | undefined, path = `${ns}/events`): Promise<EventJson[]> {
    const req = t.http.get(`${path}?${WINDOW}`).set('Host', HOST);
    if (auth) req.set('Authorization', auth);
    return (await req.expect(200)).body.events as EventJson[];
  }

  async singleOn(t: TestApp, auth: string | undefined, id = this.eventId, path = `${ns}/events`): Promise<SingleRead> {
    const req = t.http.get(`${path}/${id}`).set('Host', HOST);
    if (auth) req.set('Authorization', auth);
    const res = await req;
    const header = (name: string) => res.headers[name] as string | undefined;
    return {
      status: res.status,
      body: res.body as EventJson,
      text: res.text,
      etag: header('etag'),
      contentType: header('content-type'),
    };
  }

  /** The event in a list, if listed. */
  inList(list: EventJson[]): EventJson | undefined {
    return list.find((e) => e.id === this.eventId);
  }

  /** Every instance and caller: the next list and single reads, checked by `expectation`. */
  async expectEverywhere(expectation: (list: EventJson[], single: SingleRead, caller: string) => void): Promise<void> {
    for (const t of [this.a, this.b]) {
      for (const [caller, auth] of this.callers()) {
        expectation(await this.listOn(t, auth), await this.singleOn(t, auth), caller);
      }
    }
  }
}
