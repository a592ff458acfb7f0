import { createServer } from 'node:net';

/**
 * A port the system has free now (it picked it for a listener that is closed again). Whoever binds it next
 * may find it taken meanwhile, by another process or an outgoing connection: servers started on it retry
 * on another (`startOwnServer`); the service itself is started with PORT=0 and says which port it got.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
