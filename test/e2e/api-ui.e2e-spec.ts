import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { createUser, type TestUser } from '../support/users';

const ns = '/cal/events/v1';

/**
 * The API UI as a new team uses it, in a real browser (Debian's Chromium through playwright-core): "Try it
 * out" on the event list returns the events that exist, and a create with Basic auth works as shown.
 */
describe('API UI (Swagger UI) in a browser', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let editor: TestUser;
  let origin: string;
  const existing: number[] = [];

  /** The operation block of `method path` (its summary names the path exactly). */
  const operation = (method: string, path: string): Locator =>
    page
      .locator(`.opblock.opblock-${method}`)
      .filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) })
      .first();

  /** Opens the block, "Try it out", "Execute": the status and body the UI shows. */
  async function tryItOut(block: Locator): Promise<{ status: number; body: unknown }> {
    await block.locator('.opblock-summary').first().click();
    await block.locator('button.try-out__btn').click();
    await block.locator('button.execute').click();
    const live = block.locator('.live-responses-table .response').first();
    const status = Number((await live.locator('.response-col_status').innerText()).trim());
    const text = await live.locator('.response-col_description pre').first().innerText();
    return { status, body: JSON.parse(text) as unknown };
  }

  beforeAll(async () => {
    t = await createTestApp();
    editor = await createUser(t, 'editor');
    // Inside the list's default window (yesterday onwards, real clock): what "Try it out" must show.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    for (const offset of [1, 2, 3]) {
      const event = await postEvent(t, editor.auth, {
        title: `Soon ${offset}`,
        start_date: `${day(offset)} 10:00:00`,
        end_date: `${day(offset)} 11:00:00`,
      });
      existing.push(event.id);
    }
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(`${origin}${ns}/doc/ui/`);
    await page.locator('.opblock').first().waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => t.app.getHttpServer().close(resolve));
    await t.close();
  });

  it('lists the events that exist with "Try it out" on GET /events, nothing pre-filled narrowing it', async () => {
    const { status, body } = await tryItOut(operation('get', `${ns}/events`));
    expect(status).toBe(200);
    const listed = (body as { events: { id: number }[] }).events.map((e) => e.id);
    expect(listed).toEqual(existing);
  });

  it('creates an event with Basic auth from the example body', async () => {
    await page.locator('button.authorize').first().click();
    const dialog = page.locator('.dialog-ux .modal-ux');
    await dialog.locator('input[type="text"]').first().fill(editor.login);
    await dialog.locator('input[type="password"]').first().fill(editor.password);
    await dialog.locator('button.modal-btn.auth.authorize').first().click();
    await dialog.locator('button.btn-done').first().click();
    const { status, body } = await tryItOut(operation('post', `${ns}/events`));
    expect(status).toBe(201);
    const created = body as { id: number; author: number };
    expect(created.author).toBe(editor.id);
    await t.http.get(`${ns}/events/${created.id}`).set('Authorization', editor.auth).expect(200);
  });
});
