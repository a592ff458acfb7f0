import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's Chromium, installed when missing (`apt-get install chromium`, as root; the test setup of the
 * browser test): the machines of this project have the package in reach but not on disk.
 */
export function ensureChromium(): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  if (process.getuid?.() !== 0) {
    throw new Error(`no Chromium at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { env, encoding: 'utf8' });
  let result = install();
  // A machine whose package lists are stale or missing: read them, then try again.
  if (result.status !== 0) {
    spawnSync('apt-get', ['update'], { env, encoding: 'utf8' });
    result = install();
  }
  if (result.status !== 0 || !existsSync(CHROMIUM)) {
    throw new Error(`could not install Chromium: ${result.stderr.slice(-2000)}`);
  }
  return CHROMIUM;
}

/** Headless Chromium on this closed network: no background connections, no sandbox as root. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: ensureChromium(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
