/** The longest wait between two attempts of one delivery. */
export const MAX_RETRY_DELAY_MS = 3_600_000;

/**
 * The wait after the `failures`-th failed attempt: doubling from `baseMs`, at most an hour, with "equal
 * jitter" (between half and all of it), so receivers that come back are not hit by every delivery at once.
 */
export function retryDelayMs(failures: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.min(failures - 1, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
