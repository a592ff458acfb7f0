import { rssMb } from './lib/process-memory';
import { seededServer } from './lib/seeded-server';

/**
 * Memory of the iCalendar feed: `npm run bench:feed -- 5000` (events; BENCH_DATABASE_URL for MySQL, an
 * empty database). Seeds the events over four years, then reads the feed of all of them (every request
 * a whole feed, response cache off), sequentially and four at once, sampling the server's RSS every
 * 50 ms. Streamed in chunks, the feed should cost the server about the same whatever its size. The server
 * runs with the image's heap cap (BENCH_NO_HEAP_CAP=1 without it).
 */
async function main(): Promise<void> {
  const events = Number(process.argv[2] ?? 5000);
  // As the image runs the service (Dockerfile): a capped heap makes the collector work instead of growing.
  const image = { NODE_OPTIONS: '--max-old-space-size=160', MALLOC_ARENA_MAX: '2' };
  const { server, stop } = await seededServer(events, {
    ...image,
    ...(process.env.BENCH_NO_HEAP_CAP ? { NODE_OPTIONS: '' } : {}),
    RESPONSE_CACHE_MB: '0',
    ICAL_MAX_EVENTS: String(events),
  });
  const url = `${server.url}/cal/events/v1/events.ics?start_date=2030-01-01&end_date=2033-12-31`;
  // Reads the body as it arrives and keeps only its size, so the client holds no copy.
  const read = async (): Promise<{ bytes: number; events: number; ms: number }> => {
    const started = performance.now();
    const res = await fetch(url);
    if (res.status !== 200 || !res.body) throw new Error(`feed answered ${res.status}`);
    let bytes = 0;
    let count = 0;
    const decoder = new TextDecoder();
    for await (const chunk of res.body) {
      bytes += chunk.byteLength;
      count += decoder.decode(chunk, { stream: true }).split('BEGIN:VEVENT').length - 1;
    }
    return { bytes, events: count, ms: performance.now() - started };
  };
  try {
    const fresh = rssMb(server.pid);
    const first = await read();
    if (first.events !== events) throw new Error(`the feed held ${first.events} events, not ${events}`);
    const idle = rssMb(server.pid);
    console.log(
      `\n${events} events, ${(first.bytes / 1024 / 1024).toFixed(1)} MB of iCalendar; server RSS ${fresh} MB before the first feed, ${idle} MB after it`,
    );
    for (const [label, parallel] of [
      ['one at a time', 1],
      ['four at once ', 4],
    ] as const) {
      for (let round = 1; round <= 3; round++) {
        let peak = 0;
        const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid))), 50);
        const started = performance.now();
        const results = [];
        for (let i = 0; i < 5; i++) results.push(...(await Promise.all(Array.from({ length: parallel }, read))));
        clearInterval(sampler);
        const seconds = (performance.now() - started) / 1000;
        const ms = results.map((r) => r.ms).sort((a, b) => a - b);
        console.log(
          `${label} round ${round}: ${results.length} feeds in ${seconds.toFixed(1)} s (median ${Math.round(ms[ms.length >> 1])} ms each), ` +
            `peak RSS ${peak} MB, after ${rssMb(server.pid)} MB`,
        );
      }
    }
  } finally {
    await stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
