import autocannon from 'autocannon';

export interface LoadFigures {
  label: string;
  requestsPerSecond: number;
  p50: number;
  p97_5: number;
  p99: number;
  non2xx: number;
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
  } = {},
): Promise<LoadFigures> {
  const makeBody = options.body;
  const makePath = options.path;
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
  };
  console.log(
    `${label.padEnd(40)} ${String(figures.requestsPerSecond).padStart(7)} req/s   p50 ${figures.p50} ms   p97.5 ${figures.p97_5} ms   p99 ${figures.p99} ms   non-2xx ${figures.non2xx}`,
  );
  return figures;
}
