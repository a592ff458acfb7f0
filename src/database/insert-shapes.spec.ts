import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Column, Entity, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { memorySqlite } from '../../test/support/memory-sqlite';
import { InsertShapes } from './insert-shapes';

const upper = (v: string | null | undefined) => (typeof v === 'string' ? v.toUpperCase() : v);

@Entity('shape_rows')
class Row {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'label_text', type: 'varchar' }) label!: string;
  @Column({ type: 'varchar', nullable: true, transformer: { to: upper, from: (v: string | null) => v } })
  code!: string | null;
  @Column({ type: 'varchar', default: 'plain' }) kind!: string;
  @Column({ type: 'integer', default: 7 }) weight!: number;
}

@Entity('versioned_rows')
class Versioned {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar' }) name!: string;
  @VersionColumn() version!: number;
}

describe('InsertShapes', () => {
  const dataSource = memorySqlite([Row, Versioned]);
  const manager = () => dataSource.manager;
  const built = (rows: Partial<Row>[]) =>
    manager().createQueryBuilder().insert().into(Row).values(rows).updateEntity(false).getQueryAndParameters();

  beforeAll(async () => {
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE raw_pairs (a TEXT NOT NULL, b TEXT NOT NULL, c INTEGER NOT NULL DEFAULT 3)');
  });
  afterAll(() => dataSource.destroy());

  it('builds an entity INSERT once per shape and converts later values as the builder does', async () => {
    const shapes = new InsertShapes();
    const spy = jest.spyOn(dataSource.manager, 'createQueryBuilder');
    const first = shapes.statement(manager(), Row, [{ label: 'a', code: 'x1', kind: 'k' }]);
    const calls = spy.mock.calls.length;
    const second = shapes.statement(manager(), Row, [{ label: "b' OR 1", code: null, kind: 'k' }]);
    expect(spy.mock.calls.length).toBe(calls);
    spy.mockRestore();
    expect(second[0]).toBe(first[0]);
    expect(second).toEqual(built([{ label: "b' OR 1", code: null, kind: 'k' }]));
    await dataSource.query(...first);
    await dataSource.query(...second);
    const stored = await dataSource.query('SELECT label_text, code, kind, weight FROM shape_rows ORDER BY id');
    expect(stored).toEqual([
      { label_text: 'a', code: 'X1', kind: 'k', weight: 7 },
      { label_text: "b' OR 1", code: null, kind: 'k', weight: 7 },
    ]);
  });

  it('gives missing values and other row counts shapes of their own, with the columns’ defaults', async () => {
    const shapes = new InsertShapes();
    const rows: Partial<Row>[] = [{ label: 'c' }, { label: 'd', kind: 'special' }];
    const statement = shapes.statement(manager(), Row, rows);
    expect(shapes.statement(manager(), Row, rows)).toEqual(statement);
    expect(statement).toEqual(built(rows));
    const reversed: Partial<Row>[] = [{ label: 'c2', kind: 'k2' }, { label: 'd2' }];
    expect(shapes.statement(manager(), Row, reversed)).toEqual(built(reversed));
    expect(shapes.statement(manager(), Row, [{ label: 'e', code: 'y' }])).toEqual(built([{ label: 'e', code: 'y' }]));
    await dataSource.query(...statement);
    const stored = await dataSource.query("SELECT label_text, kind FROM shape_rows WHERE label_text IN ('c', 'd')");
    expect(stored).toEqual([
      { label_text: 'c', kind: 'plain' },
      { label_text: 'd', kind: 'special' },
    ]);
  });

  it('binds the numbers TypeORM writes into SQLite’s SQL text, as what it writes, and reuses the statement', async () => {
    const shapes = new InsertShapes();
    const spy = jest.spyOn(dataSource.manager, 'createQueryBuilder');
    const counted = (statement: () => [string, unknown[]]) => {
      const before = spy.mock.calls.length;
      const result = statement();
      return { result, built: spy.mock.calls.length > before };
    };
    const first = counted(() => shapes.statement(manager(), Row, [{ label: 'f', weight: 3 }]));
    expect(first.built).toBe(true);
    expect(first.result[0]).not.toMatch(/\b3\b/);
    // A number for a TEXT column: TypeORM writes the literal 5, which SQLite stores as '5' (bound as a JavaScript
    // number it would be REAL, stored as '5.0').
    const again = counted(() => shapes.statement(manager(), Row, [{ label: 5 as unknown as string, weight: 4 }]));
    expect(again).toEqual({ result: [first.result[0], [5n, 4n]], built: false });
    const inlined = built([{ label: 5 as unknown as string, weight: 4 }]);
    expect(inlined[0]).toMatch(/VALUES \(NULL, 5, NULL, 'plain', 4\)/);
    await dataSource.query(...again.result);
    await dataSource.query(...inlined);
    const stored = await dataSource.query(
      'SELECT label_text, typeof(label_text) AS t, weight, typeof(weight) AS w FROM shape_rows WHERE weight = 4',
    );
    expect(stored).toEqual([
      { label_text: '5', t: 'text', weight: 4, w: 'integer' },
      { label_text: '5', t: 'text', weight: 4, w: 'integer' },
    ]);
    const expression = counted(() => shapes.statement(manager(), Row, [{ label: 'h', weight: () => '2 + 3' }]));
    expect(expression.result[0]).toContain('2 + 3');
    expect(counted(() => shapes.statement(manager(), Row, [{ label: 'i', weight: () => '2 + 3' }])).built).toBe(true);
    spy.mockRestore();
  });

  it('shapes the SQL constants the builder writes for missing values (a new row’s version)', async () => {
    const shapes = new InsertShapes();
    const first = shapes.statement(manager(), Versioned, [{ name: 'v1' }]);
    const second = shapes.statement(manager(), Versioned, [{ name: 'v2' }]);
    expect(second).toEqual([first[0], ['v2']]);
    await dataSource.query(...second);
    expect(await dataSource.query('SELECT name, version FROM versioned_rows')).toEqual([{ name: 'v2', version: 1 }]);
  });

  it('shapes rows of a table without an entity by their own properties', async () => {
    const shapes = new InsertShapes();
    const first = shapes.statement(manager(), 'raw_pairs', [{ a: 'p', b: 'x' }], ['a', 'b']);
    const second = shapes.statement(manager(), 'raw_pairs', [{ a: 'q', b: 'y' }], ['a', 'b']);
    expect(second).toEqual([first[0], ['q', 'y']]);
    const uneven = [
      { a: 'r', b: 's' },
      { b: 't', a: 'u' },
    ];
    expect(shapes.statement(manager(), 'raw_pairs', uneven, ['a', 'b'])).toEqual(
      manager().createQueryBuilder().insert().into('raw_pairs', ['a', 'b']).values(uneven).getQueryAndParameters(),
    );
    await dataSource.query(...first);
    await dataSource.query(...second);
    expect(await dataSource.query('SELECT a, b, c FROM raw_pairs ORDER BY a')).toEqual([
      { a: 'p', b: 'x', c: 3 },
      { a: 'q', b: 'y', c: 3 },
    ]);
  });
});
