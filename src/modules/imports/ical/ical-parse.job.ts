import { icalBudgetProblem, type IcalLimits } from './ical-budget';
import { readIcal, type IcalParse } from './ical-records';

export interface IcalParseInput {
  /** The feed's text, or its UTF-8 bytes (moved here from the thread that fetched them). */
  feed: string | Uint8Array;
  categories?: string[];
  /** `[X-PROPERTY, write field]` of modules' fields (`declareEventField`'s `ical`). */
  properties?: [string, string][];
  limits: IcalLimits;
}

/** A feed's parse, as `runBounded` runs it in a worker thread: its budget first, then ical.js. */
export function run(input: IcalParseInput): IcalParse {
  const text =
    typeof input.feed === 'string'
      ? input.feed
      : Buffer.from(input.feed.buffer, input.feed.byteOffset, input.feed.byteLength).toString('utf8');
  const problem = icalBudgetProblem(text, input.limits);
  if (problem) return { ok: false, problem: `refused before parsing: ${problem}` };
  return readIcal(text, { categories: input.categories, properties: input.properties });
}
