import { Agent, request } from 'node:http';

/**
 * The latencies, in ms, of requests sent one after the other on one kept-alive connection until `until`
 * (a `performance.now()` time), each a 200 or the run fails.
 */
export async function sequentialLatencies(baseUrl: string, path: () => string, until: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const took: number[] = [];
  try {
    while (performance.now() < until) {
      const started = performance.now();
      const status = await get(`${baseUrl}${path()}`, agent);
      if (status !== 200) throw new Error(`${path()} answered ${status}`);
      took.push(performance.now() - started);
    }
  } finally {
    agent.destroy();
  }
  return took;
}

/**
 * The p50 of requests sent one after the other on one kept-alive connection, to the microsecond:
 * autocannon's percentiles are whole milliseconds, too coarse for answers that take one or two.
 */
export async function sequentialP50(baseUrl: string, path: () => string, seconds: number): Promise<number> {
  const took = await sequentialLatencies(baseUrl, path, performance.now() + seconds * 1000);
  took.sort((a, b) => a - b);
  return Math.round(took[Math.floor(took.length / 2)] * 1000) / 1000;
}

/** One GET on `agent`: its status, the body read and dropped. */
export function get(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}
