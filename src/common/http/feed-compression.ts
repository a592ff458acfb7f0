import compression from 'compression';
import type { RequestHandler } from 'express';

/**
 * Whether a request may be answered with iCalendar: a `.ics` route, or a list asked for `text/calendar`
 * (`events.controller.ts` negotiates it). A look at the path and one header; the answer's type decides.
 */
export function mayAnswerCalendar(req: { path: string; headers: { accept?: string } }): boolean {
  return req.path.endsWith('.ics') || (req.headers.accept?.includes('text/calendar') ?? false);
}

const isCalendar = (res: { getHeader(name: string): unknown }): boolean => {
  const type = res.getHeader('Content-Type');
  return typeof type === 'string' && type.startsWith('text/calendar');
};

/**
 * iCalendar feeds run to megabytes of repetitive text (a 12k-event feed: 5.6 MB, a tenth of that gzipped),
 * so they are compressed. JSON answers are not: they are small, and their bytes are what ETags hash. The
 * middleware wraps only a request that may get a feed: wrapping patches the response's methods, which every
 * read (a response-cache hit too) would otherwise pay for (issue 50: 10–24 % of a cached read's CPU).
 */
export function feedCompression(): RequestHandler {
  const compress = compression({ filter: (req, res) => isCalendar(res) && compression.filter(req, res) });
  return (req, res, next) => {
    if (mayAnswerCalendar(req)) compress(req, res, next);
    else next();
  };
}
