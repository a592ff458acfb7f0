import { expect } from '@jest/globals';
import type { TestApp } from './create-test-app';

/**
 * Runs `work` while `/health` is asked again and again, one request after another, and then expects every
 * answer to have been a 200 within a second: the work never held the event loop that answers requests
 * for that long (issue 43).
 */
export async function whileHealthAnswers<T>(app: TestApp, work: () => Promise<T>): Promise<T> {
  let done = false;
  const latencies: number[] = [];
  const watch = (async () => {
    while (!done) {
      const start = performance.now();
      const res = await app.http.get('/health');
      latencies.push(performance.now() - start);
      expect(res.status).toBe(200);
    }
  })();
  try {
    return await work();
  } finally {
    done = true;
    await watch;
    expect(latencies.length).toBeGreaterThan(0);
    expect(Math.max(...latencies)).toBeLessThan(1000);
  }
}
