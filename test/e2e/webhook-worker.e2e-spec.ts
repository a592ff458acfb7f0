import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { runCli } from '../../src/cli/run-cli';
import { WebhookWorker } from '../../src/modules/webhooks/webhook-worker';
import { CapturedStream } from '../support/captured-stream';
import { createTestApp, SteppingClock, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { createUser, type TestUser } from '../support/users';
import { WebhookReceiver } from '../support/webhook-receiver';

const ns = '/cal/events/v1';
// The tests run from the repository root (npm test).
const root = process.cwd();

async function cli(databaseUrl: string, ...args: string[]) {
  const stdout = new CapturedStream();
  const stderr = new CapturedStream();
  const code = await runCli(['node', 'cli', ...args], {
    stdout: stdout.asWriteStream(),
    stderr: stderr.asWriteStream(),
    overrides: { DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', WEBHOOKS_ALLOW_PRIVATE: 'true' },
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/**
 * The worker as operators run it: a process of its own (`webhooks:work`) that is killed in the middle of
 * a delivery, after which the delivery is sent again with the same id and nothing is lost; and the CLI
 * that lists endpoints, shows the queue and replays a delivery.
 */
describe('webhook worker process and CLI', () => {
  let t: TestApp;
  let admin: TestUser;
  let editor: TestUser;
  let receiver: WebhookReceiver;
  let url: string;
  let child: ChildProcess | null = null;
  const clock = new SteppingClock();

  beforeAll(async () => {
    // The worker process runs the compiled service, as the image does.
    const build = spawnSync(process.execPath, [join(root, 'scripts', 'build-if-needed.cjs')], { encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
    receiver = new WebhookReceiver();
    url = await receiver.start();
    t = await createTestApp({
      clock,
      env: { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_POLL_SECONDS: '3600', WEBHOOKS_LEASE_SECONDS: '30' },
    });
    admin = await createUser(t, 'administrator');
    editor = await createUser(t, 'editor');
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await t.close();
    await receiver.stop();
  });

  it('sends a delivery again, with the same id, after the worker process was killed in the middle of it', async () => {
    const hook = (
      await t.http
        .post(`${ns}/webhooks`)
        .set('Authorization', admin.auth)
        .send({ url, events: ['event.created'] })
        .expect(201)
    ).body as { id: number };
    receiver.hold = true;
    const event = await postEvent(t, editor.auth, { title: 'Crash test' });
    child = spawn(process.execPath, [join(root, 'dist', 'src', 'cli', 'main.js'), 'webhooks:work'], {
      env: {
        ...process.env,
        DATABASE_URL: t.database.url,
        LOG_LEVEL: 'silent',
        WEBHOOKS_ALLOW_PRIVATE: 'true',
        WEBHOOKS_LEASE_SECONDS: '30',
        WEBHOOKS_POLL_SECONDS: '1',
      },
      stdio: 'ignore',
    });
    await receiver.receivedCount(1);
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    child = null;
    receiver.hold = false;
    const first = receiver.received[0].json;
    expect(first).toMatchObject({ type: 'event.created', data: { id: event.id } });

    // The dead worker's lease still holds the delivery; once it has run out, another worker sends it.
    expect((await t.app.get(WebhookWorker).runOnce()).outcomes).toEqual([]);
    clock.advance(31_000);
    expect((await t.app.get(WebhookWorker).runOnce()).outcomes).toEqual(['delivered']);
    expect(receiver.received.map((r) => r.json.id)).toEqual([first.id, first.id]);
    const deliveries = (
      await t.http.get(`${ns}/webhooks/${hook.id}/deliveries`).set('Authorization', admin.auth).expect(200)
    ).body as { deliveries: { status: string; attempts: number }[] };
    expect(deliveries.deliveries).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1 })]);
  });

  it('lists endpoints, shows the queue and replays a delivery from the CLI', async () => {
    const listed = await cli(t.database.url, 'webhooks:list', '--json');
    expect(listed.code).toBe(0);
    const endpoints = JSON.parse(listed.stdout) as { url: string; delivered: number }[];
    expect(endpoints).toEqual([expect.objectContaining({ url, delivered: 1, status: 'active' })]);
    const queue = await cli(t.database.url, 'webhooks:queue');
    expect(queue.stdout).toMatch(/writes not yet dispatched: 0\n#\d+ pending 0 .*delivered 1, failed 0/);
    const id = receiver.received[0].json.id;
    const replayed = await cli(t.database.url, 'webhooks:replay', id);
    expect(replayed).toMatchObject({ code: 0, stdout: expect.stringContaining(`delivery ${id} is due again`) });
    expect((await t.app.get(WebhookWorker).runOnce()).outcomes).toEqual(['delivered']);
    expect(receiver.received.at(-1)?.json.id).toBe(id);
    const unknown = await cli(t.database.url, 'webhooks:replay', 'no-such-delivery');
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringContaining('No delivery with this ID') });
  });
});
