import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { csvKey, type CsvLayout } from './csv-columns';
import { parseDay, parseFlag, parseNames, parseTime, type DayOrder } from './csv-values';

/** One row as a write of its type: its line in the file, its key (what matches it again) and its fields. */
export interface CsvRecord {
  row: number;
  sourceId: string;
  title: string;
  fields: Record<string, unknown>;
}

/** What is wrong with one row: its line, the column as the file names it, and why. */
export interface CsvProblem {
  row: number;
  column: string;
  reason: string;
}

export type CsvParse =
  | {
      ok: true;
      records: CsvRecord[];
      problems: CsvProblem[];
      /** The file's columns that fill nothing here. */
      unused: string[];
      /** Each field written, by the file's column that filled it: a write's problem names the column. */
      columnOf: Record<string, string>;
    }
  | { ok: false; problem: string };

export interface CsvReadOptions {
  /** TEC's layout of the type, if it has one; a type without takes its write fields' names as columns. */
  layout: CsvLayout | null;
  /** The write fields of the type's DTO (a column of that name fills it). */
  fieldNames: readonly string[];
  /** The name of the record (`title`, `venue`): what a row is called in reports. */
  nameField: string;
  /**
   * The event's link fields (`venue`, `organizer`, a module's): a cell names the linked records, each written
   * as an object of its type's name field (`{"venue": "Blue Note"}`), found or made by name.
   */
  links: Readonly<Record<string, { many: boolean; nameField: string }>>;
  /**
   * What the type's DTO declares of its fields: `flag` (a boolean, read from `TRUE`, `yes`, `1`…) or `list` (a
   * cell of comma-separated names); the others are taken as the text they are.
   */
  kinds: Readonly<Record<string, 'flag' | 'list'>>;
  /** `--map`: the file's column → a TEC column or a write field. */
  map: Readonly<Record<string, string>>;
  dayOrder: DayOrder;
  /** Most data rows the file may hold (`IMPORTS_MAX_ROWS`). */
  maxRows: number;
}

/** The longest record (a row, its quoted line breaks included): one bigger is a broken quote, not an event. */
const MAX_RECORD_BYTES = 1024 * 1024;

/** The file's text: UTF-8 (its BOM dropped); anything else is refused with how to mend it. */
export function csvText(bytes: Uint8Array): { text: string } | { problem: string } {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    return { problem: 'the file is UTF-16: save it as CSV in UTF-8' };
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return { text };
  } catch {
    const at = firstInvalidUtf8(bytes);
    return { problem: `the file is not UTF-8 (byte ${at}, line ${lineAt(bytes, at)}): save it as CSV in UTF-8` };
  }
}

/**
 * A CSV of one type as writes of it (issue 49): its header resolved to fields (`--map`, TEC's names, the
 * write fields' own), every row converted, each row's problems named by line and column. A file that cannot
 * be read as a whole (not CSV, a column the type needs missing, too many rows) is refused whole: `ok: false`.
 */
export function readCsv(text: string, options: CsvReadOptions): CsvParse {
  const delimiter = delimiterOf(text);
  let rows: string[][];
  try {
    const parsed: unknown = parse(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: MAX_RECORD_BYTES,
      // One row past the budget is enough to know the file is over it.
      to: options.maxRows + 2,
    });
    // Without `columns`, csv-parse gives each record as its cells.
    rows = parsed as string[][];
  } catch (error) {
    return { ok: false, problem: `not CSV: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (rows.length === 0) return { ok: false, problem: 'the file is empty: a header row is needed' };
  if (rows.length > options.maxRows + 1)
    return { ok: false, problem: `more than ${options.maxRows} rows (IMPORTS_MAX_ROWS): split the file` };
  const header = rows[0];
  const resolved = resolveHeader(header, options);
  if ('problem' in resolved) return { ok: false, problem: resolved.problem };
  const records: CsvRecord[] = [];
  const problems: CsvProblem[] = [];
  const keyRows = new Map<string, number>();
  for (let index = 1; index < rows.length; index++) {
    const row = index + 1;
    const converted = convertRow(rows[index], resolved.targets, header, row, options);
    problems.push(...converted.problems);
    if (converted.problems.length > 0 || !converted.record) continue;
    const earlier = keyRows.get(converted.record.sourceId);
    if (earlier !== undefined) {
      problems.push({ row, column: header[0] ?? '', reason: `the same record as row ${earlier}: left out` });
      continue;
    }
    keyRows.set(converted.record.sourceId, row);
    records.push(converted.record);
  }
  return { ok: true, records, problems, unused: resolved.unused, columnOf: resolved.columnOf };
}

/** `;` where the header holds more of them than commas (spreadsheets in many locales), else `,`. */
function delimiterOf(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const count = (c: string) => firstLine.split(c).length - 1;
  return count(';') > count(',') ? ';' : count('\t') > count(',') ? '\t' : ',';
}

interface ResolvedHeader {
  /** By column index: the field or part it fills, or null. */
  targets: (string | null)[];
  unused: string[];
  columnOf: Record<string, string>;
}

function resolveHeader(header: string[], options: CsvReadOptions): ResolvedHeader | { problem: string } {
  const layoutColumns = options.layout?.columns ?? {};
  const parts = new Set(Object.values(layoutColumns).filter((target) => target.startsWith('@')));
  const map = new Map(Object.entries(options.map).map(([from, to]) => [csvKey(from), to]));
  const fields = new Set(options.fieldNames);
  // A write field the layout reads in parts (`start_date`: a day, then a time) is read as that part.
  const asField = (name: string): string | null =>
    parts.has(`@${name}`) ? `@${name}` : fields.has(name) ? name : null;
  const targetOf = (name: string): string | null => {
    const key = csvKey(name);
    const mapped = map.get(key);
    if (mapped !== undefined) return layoutColumns[csvKey(mapped)] ?? asField(mapped.trim());
    return layoutColumns[key] ?? asField(name.trim());
  };
  for (const [from, to] of map) {
    if (!header.some((name) => csvKey(name) === from))
      return { problem: `--map names the column "${from}", which the file does not have` };
    if (!(csvKey(to) in layoutColumns) && asField(to.trim()) === null)
      return { problem: `--map maps "${from}" to "${to}", which is neither a column of TEC's layout nor a field` };
  }
  const targets = header.map(targetOf);
  const columnOf: Record<string, string> = {};
  header.forEach((name, i) => {
    const target = targets[i];
    if (target !== null) columnOf[target.replace(/^@/, '').replace(/_(date|time)$/, '_date')] ??= name;
  });
  const required = options.layout?.required ?? [options.nameField];
  const missing = required.filter((field) => !targets.includes(field));
  if (missing.length > 0) {
    const names = missing.map((field) => columnNameOf(field, options));
    return { problem: `the file has no column for ${names.join(', ')} (name one with --map)` };
  }
  const unused = header.filter((_, i) => targets[i] === null);
  return { targets, unused, columnOf };
}

/** How a field is named to the user: TEC's column for it, else the field. */
function columnNameOf(field: string, options: CsvReadOptions): string {
  return `"${options.layout?.labels[field] ?? field}"`;
}

function convertRow(
  cells: string[],
  targets: (string | null)[],
  header: string[],
  row: number,
  options: CsvReadOptions,
): { record?: CsvRecord; problems: CsvProblem[] } {
  const problems: CsvProblem[] = [];
  const parts = new Map<string, { value: string; column: string }>();
  const fields: Record<string, unknown> = {};
  targets.forEach((target, i) => {
    const value = (cells[i] ?? '').trim();
    if (target === null || value === '') return;
    const column = header[i];
    if (target.startsWith('@')) {
      if (!parts.has(target)) parts.set(target, { value, column });
      return;
    }
    if (fields[target] !== undefined) return;
    if (options.kinds[target] === 'flag') {
      const flag = parseFlag(value);
      if (flag === null) problems.push({ row, column, reason: `"${value}" is not a yes or no (TRUE, FALSE, 1, 0)` });
      else if (flag !== undefined) fields[target] = flag;
    } else if (options.links[target]) {
      const { many, nameField } = options.links[target];
      fields[target] = many ? parseNames(value).map((linked) => ({ [nameField]: linked })) : { [nameField]: value };
    } else if (options.kinds[target] === 'list') fields[target] = parseNames(value);
    else fields[target] = value;
  });
  const name = typeof fields[options.nameField] === 'string' ? (fields[options.nameField] as string) : '';
  if (name === '') problems.push({ row, column: header[targets.indexOf(options.nameField)] ?? '', reason: 'is empty' });
  Object.assign(fields, timesOf(parts, row, options, problems), costOf(fields, parts));
  if (problems.length > 0) return { problems };
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const keyParts = (options.layout?.key ?? [options.nameField]).map((k) =>
    k === '@start' ? text(fields.start_date) : text(fields[k]).toLowerCase(),
  );
  return { record: { row, sourceId: sourceIdOf(keyParts.join('|')), title: name, fields }, problems };
}

/** The start and end of an event row, from its day and time columns: all day when it says so or has no times. */
function timesOf(
  parts: Map<string, { value: string; column: string }>,
  row: number,
  options: CsvReadOptions,
  problems: CsvProblem[],
): Record<string, unknown> {
  const startDay = parts.get('@start_date');
  if (!startDay) return {};
  const read = (part: { value: string; column: string } | undefined) => {
    if (!part) return null;
    const day = parseDay(part.value, options.dayOrder);
    if (!day) {
      const order = { ymd: 'YYYY-MM-DD', mdy: 'MM/DD/YYYY', dmy: 'DD/MM/YYYY' }[options.dayOrder];
      problems.push({ row, column: part.column, reason: `"${part.value}" is not a day (${order}; --day-order)` });
    }
    return day;
  };
  const time = (part: { value: string; column: string } | undefined, inCell: string) => {
    const text = part?.value ?? inCell;
    if (text === '') return '';
    const parsed = parseTime(text);
    if (parsed === null)
      problems.push({
        row,
        column: part?.column ?? startDay.column,
        reason: `"${text}" is not a time (19:30, 7:30 pm)`,
      });
    return parsed ?? '';
  };
  const start = read(startDay);
  const end = read(parts.get('@end_date')) ?? start;
  if (!start || !end) return {};
  const startTime = time(parts.get('@start_time'), start.time);
  const endTime = time(parts.get('@end_time'), end === start ? '' : end.time) || startTime;
  if (startTime === '') return { start_date: start.day, end_date: end.day, all_day: true };
  return { start_date: `${start.day} ${startTime}`, end_date: `${end.day} ${endTime}` };
}

/** A numeric cost with its currency symbol where TEC's columns put it (`$10`, `10 €`); any other text as it is. */
function costOf(
  fields: Record<string, unknown>,
  parts: Map<string, { value: string; column: string }>,
): Record<string, unknown> {
  const symbol = parts.get('@currency_symbol')?.value;
  if (typeof fields.cost !== 'string' || !symbol || !/^\d+(?:[.,]\d+)?(?:\s*-\s*\d+(?:[.,]\d+)?)?$/.test(fields.cost))
    return {};
  const postfix =
    parts.get('@currency_position')?.value.toLowerCase() === 'suffix' ||
    parts.get('@currency_position')?.value.toLowerCase() === 'postfix';
  return { cost: postfix ? `${fields.cost}${symbol}` : `${symbol}${fields.cost}` };
}

/** A row's key as the ledger keeps it (at most 191 characters): readable, hashed past 150. */
function sourceIdOf(key: string): string {
  if (key.length <= 180) return key;
  return `${key.slice(0, 150)}#${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

/** Where the first byte that is no UTF-8 is, for the message (a linear scan; the decoder decides). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const c = bytes[i];
    const more = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : (c & 0xf0) === 0xe0 ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (more < 0) return i;
    for (let k = 1; k <= more; k++) if (i + k >= bytes.length || (bytes[i + k] & 0xc0) !== 0x80) return i;
    i += more + 1;
  }
  return bytes.length;
}

function lineAt(bytes: Uint8Array, at: number): number {
  let line = 1;
  for (let i = 0; i < at && i < bytes.length; i++) if (bytes[i] === 0x0a) line++;
  return line;
}
