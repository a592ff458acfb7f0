import { describe, expect, it } from '@jest/globals';
import { parseBasicCredentials } from './basic-auth.middleware';

const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

describe('parseBasicCredentials', () => {
  it('reads login and password, keeping colons in the password', () => {
    expect(parseBasicCredentials(basic('alice:pa:ss word'))).toEqual({ login: 'alice', password: 'pa:ss word' });
    expect(parseBasicCredentials(basic('alice:x').replace('Basic', 'basic'))).toEqual({
      login: 'alice',
      password: 'x',
    });
  });

  it.each(['Bearer abc', 'Basic', 'Basic !!!', basic('no-colon'), basic(':nologin')])('refuses %s', (header) => {
    expect(parseBasicCredentials(header)).toBeNull();
  });
});
