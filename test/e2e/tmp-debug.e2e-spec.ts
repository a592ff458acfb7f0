import { it, expect } from '@jest/globals';
import { createTestApp } from '../support/create-test-app';
it('debug', async () => {
  console.log('start', process.getActiveResourcesInfo().join(','));
  const t = await createTestApp({ env: process.env.R ? { REDIS_URL: process.env.R } : {} });
  await t.close();
  await new Promise((r) => setTimeout(r, 500));
  console.log('after close', process.getActiveResourcesInfo().join(','));
  expect(1).toBe(1);
});
