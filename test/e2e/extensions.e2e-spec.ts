import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/run-cli';
import { loadExtensionModules } from '../../src/extension-modules';
import { SpeakersModule } from '../../examples/speakers/speakers.module';
import { CALENDAR_MODULES } from '../../src/app.module';
import { CapturedStream } from '../support/captured-stream';
import { createTestApp, EXAMPLE_EXTENSIONS } from '../support/create-test-app';
import { createUser } from '../support/users';
import { WebhookReceiver } from '../support/webhook-receiver';
import { buildService, freePort, ServiceProcess } from '../support/service-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const ns = '/cal/events/v1';
const onMysql = /^(mysql|mariadb):/.test(process.env.DATABASE_URL ?? '');

async function cli(databaseUrl: string, extensions: string, ...args: string[]) {
  const stdout = new CapturedStream();
  const stderr = new CapturedStream();
  const code = await runCli(['node', 'cli', ...args], {
    stdout: stdout.asWriteStream(),
    stderr: stderr.asWriteStream(),
    overrides: { DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', CAL_EXTENSIONS: extensions },
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/**
 * A deployment's extension named in CAL_EXTENSIONS, and nowhere in `src/`: every entry point runs it. The
 * compiled server (in cluster mode on MySQL), and the CLI's migrations.
 */
describe('extensions from CAL_EXTENSIONS', () => {
  let database: TestDatabase;
  let service: ServiceProcess | null = null;

  beforeAll(async () => {
    buildService();
    database = await createTestDatabase();
  });
  afterEach(async () => {
    service?.child.kill('SIGTERM');
    await service?.exited;
    service = null;
  });
  afterAll(async () => {
    await database.drop();
  });

  it('loads every Nest module a named file exports, and refuses a file that is missing or exports none', async () => {
    expect(await loadExtensionModules('dist/examples/speakers/speakers.module.js')).toEqual([SpeakersModule]);
    expect(await loadExtensionModules(' , ')).toEqual([]);
    await expect(loadExtensionModules('examples/nowhere.js')).rejects.toThrow(
      /CAL_EXTENSIONS: examples\/nowhere\.js: no such file/,
    );
    // The source of a module is not what Node loads: the answer says what to name instead.
    await expect(loadExtensionModules('examples/capacity/capacity.module.ts')).rejects.toThrow(
      /capacity\.module\.ts: a TypeScript source; build the package \(tsc\) and name the compiled file, e\.g\. examples\/capacity\/capacity\.module\.js/,
    );
    const empty = join(mkdtempSync(join(tmpdir(), 'cal-ext-')), 'empty.mjs');
    writeFileSync(empty, 'export const notAModule = 1;\n');
    await expect(loadExtensionModules(empty)).rejects.toThrow(/exports no Nest module/);
  });

  it("applies, shows and reverts the extensions' migrations through the CLI", async () => {
    const extension = 'dist/examples/speakers/speakers.module.js, dist/examples/tickets/tickets.module.js';
    const shown = await cli(database.url, extension, 'migrations:show', '--json');
    expect((JSON.parse(shown.stdout) as { pending: string[] }).pending).toEqual(
      expect.arrayContaining(['CreateSpeakers1790000000000', 'CreateEventTickets1790100000000']),
    );
    expect((await cli(database.url, extension, 'migrations:run')).code).toBe(0);
    const reverted = await cli(database.url, extension, 'migrations:revert', '--yes', '--json');
    expect([reverted.code, JSON.parse(reverted.stdout)]).toEqual([
      0,
      { reverted: ['CreateEventTickets1790100000000'] },
    ]);
    expect((await cli(database.url, extension, 'migrations:run', '--json')).stdout).toContain(
      'CreateEventTickets1790100000000',
    );
    // Without the setting, the same CLI does not know the extension's migrations, and says they are recorded.
    const bare = await cli(database.url, '', 'migrations:show', '--json');
    const state = JSON.parse(bare.stdout) as { applied: string[]; pending: string[]; unknown: string[] };
    expect(state.pending).toEqual([]);
    expect(state.applied).not.toContain('CreateSpeakers1790000000000');
    expect(state.unknown).toEqual(['CreateSpeakers1790000000000', 'CreateEventTickets1790100000000']);
    const text = (await cli(database.url, '', 'migrations:show')).stdout;
    expect(text).toMatch(/recorded, but no loaded module declares them .*\(2\):\n {2}CreateSpeakers1790000000000\n/);
  });

  it('serves the extension from the compiled server, in cluster mode where the database allows it', async () => {
    const port = await freePort();
    service = new ServiceProcess({
      DATABASE_URL: database.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      CAL_EXTENSIONS: EXAMPLE_EXTENSIONS,
      CAL_ADMIN_LOGIN: 'admin',
      CAL_ADMIN_PASSWORD: 'a long admin password',
      // Two workers on MySQL (SQLite stays one process): each must load the extension itself.
      WEB_CONCURRENCY: onMysql ? '2' : '1',
    });
    // Each worker logs its start, then the extensions it loaded: a line that may come after another's start.
    await service.until(
      (lines) =>
        lines.filter((l) => l.msg.includes(' listening on ')).length >= (onMysql ? 2 : 1) &&
        lines.some((l) => l.msg.startsWith('extensions loaded: ')),
    );
    // One line names each loaded extension, the file that exported it and its migrations.
    const loaded = service.lines.find((l) => l.msg.startsWith('extensions loaded: '))?.msg ?? '';
    expect(loaded).toContain(
      'SpeakersModule (dist/examples/speakers/speakers.module.js): migrations CreateSpeakers1790000000000',
    );
    expect(loaded).toContain('AudiencesModule (dist/examples/audiences/audiences.module.js): no migrations');
    const auth = `Basic ${Buffer.from('admin:a long admin password').toString('base64')}`;
    const origin = `http://127.0.0.1:${port}`;
    // Every worker answers (connections are spread over them): each created and listed a speaker.
    for (let i = 0; i < 6; i++) {
      const created = await fetch(`${origin}${ns}/speakers`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json', Connection: 'close' },
        body: JSON.stringify({ speaker: `Speaker ${i}`, status: 'publish' }),
      });
      expect(created.status).toBe(201);
    }
    const listed = await fetch(`${origin}${ns}/speakers?per_page=50`, { headers: { Connection: 'close' } });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { speakers: unknown[] }).speakers).toHaveLength(6);
    const index = (await (await fetch(`${origin}${ns}`)).json()) as { routes: Record<string, unknown> };
    expect(Object.keys(index.routes)).toContain(`/${ns.slice(1)}/speakers`);
    // The child resource, the module field and filter, and the module taxonomy, on a worker of their own.
    const post = async (path: string, body: object) => {
      const res = await fetch(`${origin}${ns}/${path}`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json', Connection: 'close' },
        body: JSON.stringify(body),
      });
      expect([path, res.status]).toEqual([path, 201]);
      return (await res.json()) as { id: number };
    };
    const event = await post('events', {
      title: 'Extended',
      start_date: '2031-07-01 10:00',
      end_date: '2031-07-01 11:00',
      audiences: ['Kids'],
    });
    await post(`events/${event.id}/tickets`, { name: 'Entry' });
    const found = await fetch(
      `${origin}${ns}/events?start_date=2031-07-01&end_date=2031-07-02&ticketed=true&audiences=kids&all_day=false`,
      {
        headers: { Connection: 'close' },
      },
    );
    type Found = { events: { id: number; tickets: { count: number }; duration_minutes: number }[] };
    const events = ((await found.json()) as Found).events;
    expect(events.map((e) => [e.id, e.tickets.count, e.duration_minutes])).toEqual([[event.id, 1, 60]]);
    expect((await fetch(`${origin}/health/ready`)).status).toBe(200);
  });

  it("renders the extensions' records and event members in the separate webhook worker's deliveries", async () => {
    const receiver = new WebhookReceiver();
    const url = await receiver.start();
    const env = {
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOKS_POLL_SECONDS: '3600',
      PUBLIC_URL: 'https://cal.example.org',
    };
    const t = await createTestApp({
      database,
      modules: [...CALENDAR_MODULES, ...(await loadExtensionModules(EXAMPLE_EXTENSIONS))],
      env,
    });
    let worker: ChildProcess | null = null;
    try {
      const admin = await createUser(t, 'administrator');
      await t.http
        .post(`${ns}/webhooks`)
        .set('Authorization', admin.auth)
        .send({ url, events: ['speaker.created', 'event.created'] })
        .expect(201);
      const speaker = await t.http
        .post(`${ns}/speakers`)
        .set('Authorization', admin.auth)
        .send({ speaker: 'Delivered speaker', status: 'publish' })
        .expect(201);
      const event = await t.http
        .post(`${ns}/events`)
        .set('Authorization', admin.auth)
        .send({
          title: 'Delivered event',
          start_date: '2031-08-01 10:00',
          end_date: '2031-08-01 12:00',
          audiences: ['Kids'],
          speaker: [speaker.body.id],
        })
        .expect(201);
      worker = spawn(process.execPath, [join(process.cwd(), 'dist', 'src', 'cli', 'main.js'), 'webhooks:work'], {
        env: {
          ...process.env,
          ...env,
          DATABASE_URL: database.url,
          LOG_LEVEL: 'silent',
          WEBHOOKS_POLL_SECONDS: '1',
          CAL_EXTENSIONS: EXAMPLE_EXTENSIONS,
        },
        stdio: 'ignore',
      });
      await receiver.receivedCount(2);
      const byType = new Map(receiver.received.map((d) => [(d.json as { type: string }).type, d.json]));
      expect(byType.get('speaker.created')).toMatchObject({
        data: { id: speaker.body.id, deleted: false, object: { id: speaker.body.id, speaker: 'Delivered speaker' } },
      });
      // Every module's member of the event, as the API shows it: the worker loaded every extension.
      expect(byType.get('event.created')).toMatchObject({
        data: {
          id: event.body.id,
          object: {
            audiences: [{ name: 'Kids' }],
            speaker: [{ id: speaker.body.id }],
            tickets: { count: 0 },
            duration_minutes: 120,
          },
        },
      });
    } finally {
      worker?.kill('SIGTERM');
      await t.close();
      await receiver.stop();
    }
  });
});
