import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AllDayModule } from '../../examples/all-day/all-day.module';
import { DurationModule } from '../../examples/duration/duration.module';
import { CALENDAR_MODULES } from '../../src/app.module';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { documentsSettled } from '../support/statements';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';
const window = 'start_date=2031-09-01&end_date=2031-09-30';

/**
 * docs/extending.md's smallest seams: an event field (`examples/duration/`) and an event list filter
 * (`examples/all-day/`), each one file of under 30 lines, loaded beside the calendar's modules.
 */
describe('an event field and an event list filter from modules', () => {
  let t: TestApp;
  let editor: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ modules: [...CALENDAR_MODULES, DurationModule, AllDayModule] });
    editor = await createUser(t, 'editor');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows duration_minutes on reads and lists, documented, and follows a change of the dates', async () => {
    const event = await postEvent(t, editor.auth, {
      title: 'Talk',
      start_date: '2031-09-02 10:00',
      end_date: '2031-09-02 11:30',
    });
    expect(event.duration_minutes).toBe(90);
    await t.http.get(`${ns}/events/${event.id}`).expect(200);
    await documentsSettled(t);
    // Served from the stored document now; a write of the dates must not leave the old value in it.
    await t.http
      .patch(`${ns}/events/${event.id}`)
      .set('Authorization', editor.auth)
      .send({ end_date: '2031-09-02 12:15' })
      .expect(200);
    expect((await t.http.get(`${ns}/events/${event.id}`).expect(200)).body.duration_minutes).toBe(135);
    const listed = await t.http.get(`${ns}/events?${window}`).expect(200);
    expect((listed.body.events as { duration_minutes: number }[]).map((e) => e.duration_minutes)).toEqual([135]);
    const doc = (await t.http.get(`${ns}/doc`).expect(200)).body as {
      components: { schemas: Record<string, { properties: Record<string, { type: string }> }> };
    };
    expect(JSON.stringify(doc.components.schemas)).toContain('"duration_minutes":{"type":"integer","example":90}');
  });

  it('filters by all_day=true|false with exact totals for every caller, echoes it, and refuses a non-boolean', async () => {
    for (const day of ['03', '04']) {
      await postEvent(t, editor.auth, {
        title: `All day ${day}`,
        all_day: true,
        start_date: `2031-09-${day} 00:00`,
        end_date: `2031-09-${day} 23:59`,
      });
    }
    await postEvent(t, editor.auth, {
      title: 'Draft all day',
      status: 'draft',
      all_day: true,
      start_date: '2031-09-05 00:00',
      end_date: '2031-09-05 23:59',
    });
    const titles = async (query: string, auth?: string) => {
      const req = t.http.get(`${ns}/events?${window}&${query}`);
      const res = await (auth ? req.set('Authorization', auth) : req).expect(200);
      return [res.headers['x-wp-total'], (res.body.events as { title: string }[]).map((e) => e.title)];
    };
    expect(await titles('all_day=true')).toEqual(['2', ['All day 03', 'All day 04']]);
    expect(await titles('all_day=false')).toEqual(['1', ['Talk']]);
    expect(await titles('all_day=1&status=publish,draft', editor.auth)).toEqual([
      '3',
      ['All day 03', 'All day 04', 'Draft all day'],
    ]);
    const page = await t.http.get(`${ns}/events?${window}&all_day=true&per_page=1`).expect(200);
    expect(page.body.next_rest_url).toContain('all_day=true');
    const bad = await t.http.get(`${ns}/events?all_day=maybe`).expect(400);
    expect(Object.keys(bad.body.data.params)).toEqual(['all_day']);
  });
});
