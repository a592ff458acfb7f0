import { csvText, readCsv, type CsvParse, type CsvReadOptions } from './csv-rows';

export interface CsvParseInput {
  /** The file's bytes (moved here from the thread that read them). */
  file: Uint8Array;
  options: CsvReadOptions;
}

/** A CSV's parse, as `runBounded` runs it in a worker thread: its encoding, then its rows. */
export function run(input: CsvParseInput): CsvParse {
  const decoded = csvText(input.file);
  if ('problem' in decoded) return { ok: false, problem: decoded.problem };
  return readCsv(decoded.text, input.options);
}
