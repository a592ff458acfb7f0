import { icalBudgetProblem, type IcalLimits } from './ical-budget';
import { readIcal, type IcalParse } from './ical-records';

export interface IcalParseInput {
  text: string;
  categories?: string[];
  limits: IcalLimits;
}

/** A feed's parse, as `runBounded` runs it in a worker thread: its budget first, then ical.js. */
export function run(input: IcalParseInput): IcalParse {
  const problem = icalBudgetProblem(input.text, input.limits);
  if (problem) return { ok: false, problem: `refused before parsing: ${problem}` };
  return readIcal(input.text, { categories: input.categories });
}
