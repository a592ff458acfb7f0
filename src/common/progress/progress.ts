import { SingleBar } from 'cli-progress';

export interface Progress {
  advance(by?: number, note?: string): void;
  stop(): void;
}

/**
 * Progress of a long operation on `stream`: a bar with rate and ETA on a terminal; on anything else
 * (CI logs, a file) plain lines every few seconds, so a log shows the operation is alive and how fast.
 */
export function startProgress(label: string, total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  const bar = new SingleBar({
    stream,
    format: `${label} [{bar}] {value}/{total} {percentage}% | {rate}/s | ETA {eta_formatted} {note}`,
    noTTYOutput: true,
    notTTYSchedule: 5000,
    etaBuffer: 50,
    hideCursor: stream.isTTY === true,
  });
  const started = Date.now();
  let done = 0;
  const payload = (note = '') => ({ rate: rateOf(done, Date.now() - started), note });
  bar.start(total, 0, payload());
  return {
    advance(by = 1, note) {
      done += by;
      bar.update(done, payload(note));
    },
    stop() {
      bar.update(done, payload());
      bar.stop();
      if (stream.isTTY !== true) stream.write(`${label}: ${done}/${total} in ${formatSeconds(Date.now() - started)}\n`);
    },
  };
}

export function rateOf(done: number, elapsedMs: number): string {
  if (elapsedMs <= 0) return '0';
  const perSecond = (done * 1000) / elapsedMs;
  return perSecond >= 100 ? String(Math.round(perSecond)) : perSecond.toFixed(1);
}

function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
