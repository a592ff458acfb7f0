import { SingleBar } from 'cli-progress';

export interface Progress {
  advance(by?: number, note?: string): void;
  /** The total learnt as the work goes (a paged source tells its size page by page). */
  setTotal?(total: number): void;
  stop(): void;
}

/** How often a line is written where no bar can be drawn. */
const LINE_EVERY_MS = 5000;

/**
 * Progress of a long operation on `stream`: a bar with rate and ETA on a terminal; on anything else
 * (CI logs, a file) plain lines every few seconds and one at the end, so a log shows the operation is
 * alive and how fast, without a bar's drawing characters.
 */
export function startProgress(label: string, total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = Date.now();
  let done = 0;
  if (stream.isTTY !== true) {
    let lastLine = started;
    return {
      advance(by = 1, note) {
        done += by;
        const now = Date.now();
        if (now - lastLine < LINE_EVERY_MS) return;
        lastLine = now;
        const percent = total > 0 ? Math.floor((done * 100) / total) : 100;
        stream.write(
          `${label}: ${done}/${total} (${percent}%, ${rateOf(done, now - started)}/s)${note ? ` ${note}` : ''}\n`,
        );
      },
      setTotal(next) {
        total = next;
      },
      stop() {
        stream.write(`${label}: ${done}/${total} in ${formatSeconds(Date.now() - started)}\n`);
      },
    };
  }
  const bar = new SingleBar({
    stream,
    format: `${label} [{bar}] {value}/{total} {percentage}% | {rate}/s | ETA {eta_formatted} {note}`,
    etaBuffer: 50,
    hideCursor: true,
  });
  const payload = (note = '') => ({ rate: rateOf(done, Date.now() - started), note });
  bar.start(total, 0, payload());
  return {
    advance(by = 1, note) {
      done += by;
      bar.update(done, payload(note));
    },
    setTotal(next) {
      bar.setTotal(next);
    },
    stop() {
      bar.update(done, payload());
      bar.stop();
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
