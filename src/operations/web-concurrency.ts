/** The most worker processes `WEB_CONCURRENCY` may ask for. */
export const MAX_WORKERS = 64;

/**
 * Worker processes from `WEB_CONCURRENCY`: unset or empty → 1 (no cluster), `auto` → one per core, or a
 * number from 1 to 64. Anything else is a configuration error (thrown, as the environment check does).
 */
export function workerCount(raw: string | undefined, cores: number): number {
  const value = raw?.trim() ?? '';
  if (value === '') return 1;
  if (value.toLowerCase() === 'auto') return Math.max(1, Math.min(MAX_WORKERS, cores));
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_WORKERS) {
    throw new Error(
      `Invalid configuration:\n  WEB_CONCURRENCY="${value}": must be auto or a number from 1 to ${MAX_WORKERS}`,
    );
  }
  return Number(value);
}

/** The delay before restarting a worker that died `crashesInARow` times shortly after starting. */
export function restartDelayMs(crashesInARow: number): number {
  return crashesInARow <= 0 ? 0 : Math.min(30_000, 500 * 2 ** (crashesInARow - 1));
}
