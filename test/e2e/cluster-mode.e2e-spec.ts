import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ServiceProcess, buildService } from '../support/service-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * `WEB_CONCURRENCY`: N worker processes behind one port on MySQL/MariaDB, a dead worker replaced, and all
 * of them stopped by one SIGTERM; on SQLite one process, with a warning.
 */
describe('cluster mode (WEB_CONCURRENCY)', () => {
  let database: TestDatabase;
  let service: ServiceProcess | null = null;
  /** The port the workers share: PORT=0 lets the system pick it (Node gives every worker the same one). */
  const portOf = (line: { msg: string }) => Number(/ listening on \S+:(\d+)/.exec(line.msg)![1]);

  beforeAll(async () => {
    buildService();
    database = await createTestDatabase();
  });
  afterAll(async () => {
    service?.child.kill('SIGKILL');
    await database.drop();
  });

  it('runs the workers, replaces one that dies, and stops them all on SIGTERM', async () => {
    service = new ServiceProcess({
      WEB_CONCURRENCY: '2',
      PORT: '0',
      DATABASE_URL: database.url,
      WEBHOOKS_WORKER: 'false',
    });
    if (database.kind === 'sqlite') {
      await service.until((lines) => lines.some((l) => l.msg.includes(' listening on ')));
      expect(service.lines.some((l) => l.msg.includes('WEB_CONCURRENCY is ignored on SQLite'))).toBe(true);
      expect(service.listening().map((l) => l.pid)).toEqual([service.child.pid]);
    } else {
      await service.until(() => service!.listening().length === 2);
      const workers = service.listening().map((l) => l.pid);
      const port = portOf(service.listening()[0]);
      expect(service.listening().map(portOf)).toEqual([port, port]);
      expect(port).toBeGreaterThan(0);
      expect(new Set(workers).size).toBe(2);
      expect(workers).not.toContain(service.child.pid);
      const res = await fetch(`http://127.0.0.1:${port}/cal/events/v1/events`);
      expect(res.status).toBe(200);
      process.kill(workers[0], 'SIGKILL');
      await service.until(() => service!.listening().length === 3);
      // The replacement worker listens on the same port.
      expect(portOf(service.listening()[2])).toBe(port);
      expect(service.lines.some((l) => /worker [12] exited \(SIGKILL\); restarting/.test(l.msg))).toBe(true);
      expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
    }
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    service = null;
  });
});
