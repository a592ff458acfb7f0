import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import { memorySqlite } from '../../test/support/memory-sqlite';
import type { DatabaseContext } from './database-context';
import { ShapedQueries, unionAll } from './shaped-queries';

@Entity('shaped_things')
class Thing {
  @PrimaryColumn({ type: 'integer' }) id!: number;
  @Column({ name: 'kind_name', type: 'varchar' }) kind!: string;
}

describe('ShapedQueries', () => {
  const dataSource = memorySqlite([Thing]);
  const shaped = new ShapedQueries({ manager: dataSource.manager } as DatabaseContext);
  let builds = 0;
  const query = (ids: number[], kind: string) =>
    shaped.rawMany<{ id: number }>('things', { ids, kind }, (manager, params) => {
      builds++;
      return manager
        .createQueryBuilder(Thing, 't')
        .select('t.id', 'id')
        .where('t.id IN (:...ids)', params)
        .andWhere('t.kind = :kind AND t.id > :floor', { ...params, floor: 1 })
        .orderBy('t.id', 'ASC');
    });

  beforeAll(async () => {
    await dataSource.initialize();
    await dataSource.manager.insert(Thing, [
      { id: 1, kind: 'a' },
      { id: 2, kind: 'a' },
      { id: 3, kind: 'b' },
      { id: 4, kind: 'a' },
    ]);
  });
  afterAll(() => dataSource.destroy());

  it('builds the SQL once per list length and runs it with each call’s values and the built-in constants', async () => {
    expect((await query([1, 2], 'a')).map((r) => r.id)).toEqual([2]);
    expect((await query([3, 4], 'a')).map((r) => r.id)).toEqual([4]);
    expect((await query([3, 4], 'b')).map((r) => r.id)).toEqual([3]);
    expect(builds).toBe(1);
    expect((await query([1, 2, 3, 4], 'a')).map((r) => r.id)).toEqual([2, 4]);
    expect(builds).toBe(2);
  });

  it('passes values as parameters, never into the SQL', async () => {
    expect(await query([2], "a' OR '1'='1")).toEqual([]);
  });

  it('shapes a UNION ALL of parts, each part’s values in its place', async () => {
    let unionBuilds = 0;
    const union = (ids: number[], kinds: [string, string]) =>
      shaped.rawMany<{ part: number; id: number }>(
        'things-union',
        { ids, a: kinds[0], b: kinds[1] },
        (manager, params) => {
          unionBuilds++;
          return unionAll(
            (['a', 'b'] as const).map((kind, index) =>
              manager
                .createQueryBuilder(Thing, 't')
                .select(String(index), 'part')
                .addSelect('t.id', 'id')
                .where(`t.id IN (:...ids) AND t.kind = :${kind}`, params),
            ),
          );
        },
      );
    const sorted = (rows: { part: number; id: number }[]) =>
      rows.map((r) => [Number(r.part), r.id]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    expect(sorted(await union([1, 2, 3], ['a', 'b']))).toEqual([
      [0, 1],
      [0, 2],
      [1, 3],
    ]);
    expect(sorted(await union([3, 4], ['b', 'a']))).toEqual([
      [0, 3],
      [1, 4],
    ]);
    expect(unionBuilds).toBe(2);
    expect(sorted(await union([1, 4], ['a', 'a']))).toEqual([
      [0, 1],
      [0, 4],
      [1, 1],
      [1, 4],
    ]);
    expect(unionBuilds).toBe(2);
  });
});
