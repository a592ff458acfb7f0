import { describe, expect, it } from '@jest/globals';
import { TEC_CSV_LAYOUTS } from './csv-columns';
import { csvText, readCsv, type CsvReadOptions } from './csv-rows';
import { parseDay, parseFlag, parseTime } from './csv-values';

const events: CsvReadOptions = {
  layout: TEC_CSV_LAYOUTS.events,
  fieldNames: ['title', 'start_date', 'end_date', 'description', 'venue', 'cost'],
  nameField: 'title',
  links: { venue: { many: false, nameField: 'venue' }, organizer: { many: true, nameField: 'organizer' } },
  kinds: {
    all_day: 'flag',
    show_map: 'flag',
    show_map_link: 'flag',
    hide_from_listings: 'flag',
    sticky: 'flag',
    featured: 'flag',
    categories: 'list',
    tags: 'list',
  },
  map: {},
  dayOrder: 'ymd',
  maxRows: 100,
};

describe('CSV values', () => {
  it('reads days in the file’s order, refusing days that do not exist', () => {
    expect(parseDay('2027-03-01', 'mdy')).toEqual({ day: '2027-03-01', time: '' });
    expect(parseDay('03/01/2027', 'mdy')).toEqual({ day: '2027-03-01', time: '' });
    expect(parseDay('03/01/2027', 'dmy')).toEqual({ day: '2027-01-03', time: '' });
    expect(parseDay('1.3.27 19:30', 'dmy')).toEqual({ day: '2027-03-01', time: '19:30' });
    expect(parseDay('2027-02-30', 'ymd')).toBeNull();
    expect(parseDay('03/01/2027', 'ymd')).toBeNull();
    expect(parseDay('next Tuesday', 'mdy')).toBeNull();
  });

  it('reads times in 24 and 12 hours, and flags as TEC writes them', () => {
    expect(parseTime('19:30')).toBe('19:30:00');
    expect(parseTime('7:30 pm')).toBe('19:30:00');
    expect(parseTime('12 am')).toBe('00:00:00');
    expect(parseTime('12:15 PM')).toBe('12:15:00');
    expect(parseTime('25:00')).toBeNull();
    expect(parseTime('19')).toBeNull();
    expect([parseFlag('TRUE'), parseFlag('no'), parseFlag(''), parseFlag('maybe')]).toEqual([
      true,
      false,
      undefined,
      null,
    ]);
  });
});

describe('readCsv', () => {
  it('reads TEC’s layout whatever the columns’ case, joining day and time, with the cost’s symbol', () => {
    const text = [
      'EVENT NAME,EVENT START DATE,EVENT START TIME,EVENT END DATE,EVENT END TIME,EVENT VENUE NAME,EVENT ORGANIZER NAME,EVENT CATEGORY,EVENT COST,EVENT CURRENCY SYMBOL,ALLOW COMMENTS,HIDE FROM EVENT LISTINGS',
      'Jazz Night,2027-03-01,19:30,2027-03-01,22:00,Blue Note,"Night Owls, Jazz Club","Music, Jazz",15,$,TRUE,FALSE',
      'Book fair,2027-04-02,,2027-04-04,,,,,Free,,,',
    ].join('\n');
    const parsed = readCsv(text, events);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.problems).toEqual([]);
    expect(parsed.unused).toEqual(['ALLOW COMMENTS']);
    expect(parsed.records[0]).toMatchObject({
      row: 2,
      title: 'Jazz Night',
      fields: {
        title: 'Jazz Night',
        start_date: '2027-03-01 19:30:00',
        end_date: '2027-03-01 22:00:00',
        venue: { venue: 'Blue Note' },
        organizer: [{ organizer: 'Night Owls' }, { organizer: 'Jazz Club' }],
        categories: ['Music', 'Jazz'],
        cost: '$15',
        hide_from_listings: false,
      },
    });
    expect(parsed.records[1].fields).toMatchObject({
      start_date: '2027-04-02',
      end_date: '2027-04-04',
      all_day: true,
      cost: 'Free',
    });
  });

  it('names each bad row by line and column, keeps the good ones, and leaves out a second copy of a row', () => {
    const text = [
      'Event Name,Event Start Date,Event Start Time,Event Show Map',
      'Good,2027-03-01,10:00,yes',
      ',2027-03-01,10:00,',
      'Bad day,2027-02-30,10:00,',
      'Bad time,2027-03-01,25:61,',
      'Bad flag,2027-03-01,10:00,perhaps',
      'good,2027-03-01,10:00,',
    ].join('\r\n');
    const parsed = readCsv(text, events);
    if (!parsed.ok) throw new Error(parsed.problem);
    expect(parsed.records.map((r) => r.row)).toEqual([2]);
    expect(parsed.problems).toEqual([
      { row: 3, column: 'Event Name', reason: 'is empty' },
      { row: 4, column: 'Event Start Date', reason: expect.stringContaining('"2027-02-30" is not a day') },
      { row: 5, column: 'Event Start Time', reason: expect.stringContaining('"25:61" is not a time') },
      { row: 6, column: 'Event Show Map', reason: expect.stringContaining('"perhaps" is not a yes or no') },
      { row: 7, column: 'Event Name', reason: 'the same record as row 2: left out' },
    ]);
  });

  it('refuses a whole file it cannot read: missing columns, broken quotes, too many rows, empty', () => {
    expect(readCsv('Title,When\nA,2027-01-01', events)).toEqual({
      ok: false,
      problem: expect.stringContaining('no column for "Event Name", "Event Start Date"'),
    });
    expect(readCsv('Event Name,Event Start Date\n"open,2027-01-01\n', events)).toEqual({
      ok: false,
      problem: expect.stringContaining('not CSV'),
    });
    const many = ['Event Name,Event Start Date', ...Array.from({ length: 101 }, (_, i) => `E${i},2027-01-01`)].join(
      '\n',
    );
    expect(readCsv(many, events)).toEqual({ ok: false, problem: expect.stringContaining('more than 100 rows') });
    expect(readCsv('', events)).toEqual({ ok: false, problem: expect.stringContaining('empty') });
  });

  it('takes --map for other names, and a column named as a field', () => {
    const parsed = readCsv('Was,Begins,cost\nTalk,01/03/2027,5', {
      ...events,
      map: { Was: 'Event Name', begins: 'start_date' },
      dayOrder: 'dmy',
    });
    if (!parsed.ok) throw new Error(parsed.problem);
    expect(parsed.records[0].fields).toMatchObject({
      title: 'Talk',
      start_date: '2027-03-01',
      all_day: true,
      cost: '5',
    });
    expect(readCsv('A,B\nx,y', { ...events, map: { C: 'title' } })).toEqual({
      ok: false,
      problem: expect.stringContaining('--map names the column "c"'),
    });
  });

  it('reads semicolon files, and refuses text that is not UTF-8 with where and how to mend it', () => {
    const parsed = readCsv('Event Name;Event Start Date\nFête;2027-07-14', events);
    expect(parsed.ok && parsed.records[0].title).toBe('Fête');
    expect(csvText(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))).toEqual({ text: 'A' });
    expect(csvText(new Uint8Array([0xff, 0xfe, 0x41, 0x00]))).toEqual({ problem: expect.stringContaining('UTF-16') });
    const latin1 = new Uint8Array([...Buffer.from('Name\nCaf'), 0xe9, 0x0a]);
    expect(csvText(latin1)).toEqual({ problem: 'the file is not UTF-8 (byte 8, line 2): save it as CSV in UTF-8' });
  });
});
