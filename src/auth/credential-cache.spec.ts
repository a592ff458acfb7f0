import { describe, expect, it } from '@jest/globals';
import type { SharedRedis } from '../common/redis/shared-redis';
import type { AppConfig } from '../config/app-config';
import { toAuthUser } from './auth-user';
import { CredentialCache } from './credential-cache';

/** A Redis holding one counter and the token of its keys, that can be taken down or flushed. */
function fakeRedis() {
  const state = { value: 0, down: false, token: 'first' };
  const fail = () => Promise.reject(new Error('Connection is closed.'));
  const client = {
    incr: () => (state.down ? fail() : Promise.resolve(++state.value)),
  };
  const redis = {
    client,
    key: (name: string) => `test:${name}`,
    readKeys: () =>
      state.down
        ? fail()
        : Promise.resolve({ values: [state.value === 0 ? null : String(state.value)], token: state.token }),
  } as unknown as SharedRedis;
  return { state, redis };
}

const config = { authCacheSeconds: 60 } as AppConfig;
const user = toAuthUser({ id: 3, login: 'ann', role: 'editor' });

describe('CredentialCache across instances (credential epoch in Redis)', () => {
  it('stops using an entry on every instance once another instance revoked a password', async () => {
    const { redis } = fakeRedis();
    const a = new CredentialCache(config, redis);
    const b = new CredentialCache(config, redis);
    const epoch = await b.epoch();
    b.set('ann', 'pw', { user, passwordId: 'p1' }, epoch);
    expect(b.get('ann', 'pw', await b.epoch())?.user.id).toBe(3);
    await a.forgetPassword('p1');
    expect(b.get('ann', 'pw', await b.epoch())).toBeUndefined();
  });

  it('never uses an entry whose verification started before the revocation', async () => {
    const { redis } = fakeRedis();
    const a = new CredentialCache(config, redis);
    const b = new CredentialCache(config, redis);
    const started = await b.epoch();
    await a.forgetUser(3);
    b.set('ann', 'pw', { user, passwordId: 'p1' }, started);
    expect(b.get('ann', 'pw', await b.epoch())).toBeUndefined();
  });

  it('never uses an entry of an epoch from before Redis lost its keys, though the count repeats', async () => {
    const { redis, state } = fakeRedis();
    const cache = new CredentialCache(config, redis);
    state.value = 2;
    cache.set('ann', 'pw', { user, passwordId: 'p1' }, await cache.epoch());
    // Flushed, and two revocations since: the count is 2 again.
    state.token = 'second';
    state.value = 2;
    expect(cache.get('ann', 'pw', await cache.epoch())).toBeUndefined();
  });

  it('keeps entries for a second only while Redis is down', async () => {
    const { redis, state } = fakeRedis();
    const cache = new CredentialCache(config, redis);
    cache.set('ann', 'pw', { user, passwordId: 'p1' }, await cache.epoch());
    state.down = true;
    const epoch = await cache.epoch();
    expect(epoch).toEqual({ value: null, unavailable: true });
    expect(cache.get('ann', 'pw', epoch)?.user.id).toBe(3);
    await expect(cache.forgetPassword('other')).resolves.toBeUndefined();
  });

  it('works as before without Redis', async () => {
    const cache = new CredentialCache(config, { client: null } as unknown as SharedRedis);
    const epoch = await cache.epoch();
    expect(epoch).toEqual({ value: null, unavailable: false });
    cache.set('ann', 'pw', { user, passwordId: 'p1' }, epoch);
    expect(cache.get('ann', 'pw', epoch)?.passwordId).toBe('p1');
    await cache.forgetPassword('p1');
    expect(cache.get('ann', 'pw', epoch)).toBeUndefined();
  });
});
