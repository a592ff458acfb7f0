import { Agent, request } from 'node:http';

/**
 * The p50 of requests sent one after the other on one kept-alive connection, to the microsecond:
 * autocannon's percentiles are whole milliseconds, too coarse for answers that take one or two.
 */
export async function sequentialP50(baseUrl: string, path: () => string, seconds: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const took: number[] = [];
  const until = performance.now() + seconds * 1000;
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
  took.sort((a, b) => a - b);
  return Math.round(took[Math.floor(took.length / 2)] * 1000) / 1000;
}

function get(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}
