import { describe, expect, it } from '@jest/globals';
import { KNOWN_VARIABLES, lookalikeVariables, lookalikeWarning } from './variable-names';

/** What a shell, npm, CI runners and container platforms put into the environment. */
const ORDINARY = {
  PATH: '/usr/bin',
  HOME: '/root',
  HOSTNAME: 'box',
  PWD: '/srv',
  SHELL: '/bin/sh',
  TERM: 'xterm',
  LANG: 'C.UTF-8',
  NODE_ENV: 'production',
  NODE_OPTIONS: '--max-old-space-size=512',
  NODE_EXTRA_CA_CERTS: '/ca.pem',
  INIT_CWD: '/srv',
  npm_config_cache: '/tmp',
  npm_lifecycle_event: 'start',
  npm_package_version: '1.0.0',
  CI: 'true',
  GITHUB_ACTIONS: 'true',
  KUBERNETES_SERVICE_HOST: '10.0.0.1',
  KUBERNETES_PORT: 'tcp://10.0.0.1:443',
  SSL_CERT_FILE: '/etc/ssl/cert.pem',
  TZ: 'UTC',
  DATABASE: 'x',
  OLDPWD: '/',
  SHLVL: '1',
  _: '/usr/bin/node',
};

describe('lookalikeVariables', () => {
  it('finds typos of known settings and names what was meant', () => {
    const found = lookalikeVariables({
      DATABSE_URL: 'mysql://db/cal',
      REDIS_URI: 'redis://r',
      LOGLEVEL: 'debug',
      database_url: 'x',
      PUBLIC_ULR: 'https://x',
    });
    expect(found).toEqual([
      { name: 'DATABSE_URL', meant: 'DATABASE_URL' },
      { name: 'LOGLEVEL', meant: 'LOG_LEVEL' },
      { name: 'PUBLIC_ULR', meant: 'PUBLIC_URL' },
      { name: 'REDIS_URI', meant: 'REDIS_URL' },
      { name: 'database_url', meant: 'DATABASE_URL' },
    ]);
  });

  it('finds unknown names with the service prefixes, with a guess only when one is near', () => {
    expect(lookalikeVariables({ DB_HOST: 'db', CAL_ADMIN_PASS: 'x', DB_QUERY_TIMEOUT: '5', CAL_THEME: 'x' })).toEqual([
      { name: 'CAL_ADMIN_PASS', meant: 'CAL_ADMIN_PASSWORD' },
      { name: 'CAL_THEME', meant: null },
      { name: 'DB_HOST', meant: 'DATABASE_URL' },
      { name: 'DB_QUERY_TIMEOUT', meant: 'DB_QUERY_TIMEOUT_SECONDS' },
    ]);
  });

  it('leaves known settings and the ordinary environment alone', () => {
    const known = Object.fromEntries(KNOWN_VARIABLES.map((name) => [name, 'x']));
    expect(lookalikeVariables({ ...ORDINARY, ...known, CAL_WORKER_SLOT: '1' })).toEqual([]);
  });

  it('says what to do in its warning', () => {
    expect(lookalikeWarning({ name: 'DATABSE_URL', meant: 'DATABASE_URL' })).toBe(
      'DATABSE_URL is set but is not a setting of this service (it does nothing): did you mean DATABASE_URL?',
    );
    expect(lookalikeWarning({ name: 'DB_HOST', meant: null })).toMatch(/docs\/configuration\.md/);
  });
});
