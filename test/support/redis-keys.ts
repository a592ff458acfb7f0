import { Redis } from 'ioredis';

/** The shared Redis every machine of the project runs; tests keep their keys under a prefix of their own. */
export const REDIS_URL = 'redis://127.0.0.1:6379';

/** Deletes the keys a test run left under `prefix` in the shared Redis. */
export async function dropRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
}
