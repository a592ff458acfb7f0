import autocannon from 'autocannon';
import { cpuTime } from './process-cpu';

export interface LoadFigures {
  label: string;
  requestsPerSecond: number;
  p50: number;
  p97_5: number;
  p99: number;
  non2xx: number;
  /** CPU time per request of each process named in `cpuOf`, in ms. */
  cpuMsPerRequest: Record<string, number>;
  /** Of that, the kernel's time (system calls), in ms. */
  kernelMsPerRequest: Record<string, number>;
}

/** A bounded load run against one URL on this machine; prints and returns its figures. */
export async function measure(
  label: string,
  url: string,
  options: {
    headers?: Record<string, string>;
    duration?: number;
    connections?: number;
    method?: 'GET' | 'POST';
    /** A new body for each request (writes that must not collide). */
    body?: () => string;
    /** A new path (with query) for each request: every request a different query. */
    path?: () => string;
    /**
     * Processes whose CPU time per request to report (label → pid): a figure that drifts less with the
     * machine's speed than requests per second, for comparing two versions.
     */
    cpuOf?: Record<string, number>;
  } = {},
): Promise<LoadFigures> {
  const makeBody = options.body;
  const makePath = options.path;
  const cpuBefore = Object.entries(options.cpuOf ?? {}).map(([name, pid]) => ({ name, pid, before: cpuTime(pid) }));
  const result = await autocannon({
    url,
    method: options.method ?? 'GET',
    headers: options.headers,
    duration: options.duration ?? 10,
    connections: options.connections ?? 10,
    ...(makeBody || makePath
      ? {
          requests: [
            {
              setupRequest: (req) => ({
                ...req,
                ...(makeBody ? { body: makeBody() } : {}),
                ...(makePath ? { path: makePath() } : {}),
              }),
            },
          ],
        }
      : {}),
  });
  const figures: LoadFigures = {
    label,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    cpuMsPerRequest: {},
    kernelMsPerRequest: {},
  };
  const perRequest = (ms: number) => Math.round((ms / Math.max(1, result.requests.total)) * 100) / 100;
  for (const { name, pid, before } of cpuBefore) {
    const after = cpuTime(pid);
    figures.cpuMsPerRequest[name] = perRequest(after.total - before.total);
    figures.kernelMsPerRequest[name] = perRequest(after.kernel - before.kernel);
  }
  console.log(
    `${label.padEnd(40)} ${String(figures.requestsPerSecond).padStart(7)} req/s   p50 ${figures.p50} ms   p97.5 ${figures.p97_5} ms   p99 ${figures.p99} ms   non-2xx ${figures.non2xx}`,
  );
  const cpu = Object.entries(figures.cpuMsPerRequest);
  if (cpu.length > 0) {
    console.log(
      `${''.padEnd(40)} CPU per request: ${cpu
        .map(([name, ms]) => `${name} ${ms.toFixed(2)} ms (kernel ${figures.kernelMsPerRequest[name].toFixed(2)})`)
        .join(', ')}`,
    );
  }
  return figures;
}
