import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import { memorySqlite } from '../../test/support/memory-sqlite';
import { RawRows } from './raw-rows';

@Entity('raw_things')
class Thing {
  @PrimaryColumn({ type: 'integer' }) id!: number;
  @Column({ name: 'is_open', type: 'boolean' }) open!: boolean;
  @Column({
    name: 'label',
    type: 'varchar',
    nullable: true,
    transformer: { from: (v: string | null) => v?.toUpperCase() ?? null, to: (v: string) => v },
  })
  label!: string | null;
  // A name a compiled reader must write as a string literal, quotes and all.
  @Column({ name: 'odd', type: 'varchar', nullable: true }) 'it"s\\odd'!: string | null;
}

describe('RawRows', () => {
  const dataSource = memorySqlite([Thing]);
  const raw = new RawRows(dataSource);
  const rowsOf = (sql: string) => dataSource.query<Record<string, unknown>[]>(sql);

  beforeAll(async () => {
    await dataSource.initialize();
    await dataSource.query(
      `INSERT INTO raw_things (id, is_open, label, odd) VALUES (1, 1, 'jazz', 'x'), (2, 0, NULL, NULL)`,
    );
  });
  afterAll(() => dataSource.destroy());

  it('reads entities through the driver’s conversions and the columns’ transformers, primary column first', async () => {
    const rows = await rowsOf(`SELECT ${raw.select(Thing, 't').join(', ')} FROM raw_things t ORDER BY t.id`);
    const things = rows.map((row) => raw.read(Thing, 't', row));
    expect(things).toEqual([
      { id: 1, open: true, label: 'JAZZ', 'it"s\\odd': 'x' },
      { id: 2, open: false, label: null, 'it"s\\odd': null },
    ]);
    expect(Object.keys(things[0] ?? {})[0]).toBe('id');
  });

  it('reads null for an outer-joined entity the join did not find, and the other alias’s entity beside it', async () => {
    const rows = await rowsOf(
      `SELECT ${[...raw.select(Thing, 'a'), ...raw.select(Thing, 'b')].join(', ')}
         FROM raw_things a LEFT JOIN raw_things b ON b.id = a.id + 1 ORDER BY a.id`,
    );
    expect(rows.map((row) => [raw.read(Thing, 'a', row)?.id, raw.read(Thing, 'b', row)?.id ?? null])).toEqual([
      [1, 2],
      [2, null],
    ]);
  });

  it('lines up NULL columns with the select list, for the parts of a UNION that do not read an entity', () => {
    expect(raw.selectNulls(Thing, 'n')).toHaveLength(raw.select(Thing, 'n').length);
    expect(raw.selectNulls(Thing, 'n')[0]).toBe('NULL AS "n__id"');
  });
});
