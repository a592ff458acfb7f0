import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { loadSqliteDriver } from '../../database/sqlite-driver';
import { toAuthUser, type AuthUser } from '../../auth/auth-user';
import type { Role } from '../../auth/roles';
import { isInScope, listScopeFor } from './post-query';
import type { PostStatus } from './post-status';
import { contentVisible, contentVisibleCondition, scopeCondition, type SqlCondition } from './post-visibility';

const NOW = '2030-06-15 12:00:00';
const ME = 1;
const OTHER = 2;

interface Row {
  id: number;
  status: PostStatus;
  dateUtc: string;
  authorId: number;
  passwordHash: string | null;
}

/** Every status (a scheduled post before and after its date), own and someone else's, with and without a password. */
const ROWS: Row[] = (['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const)
  .flatMap((status) =>
    (status === 'future' ? ['2030-01-01 00:00:00', '2031-01-01 00:00:00'] : ['2030-01-01 00:00:00']).map((dateUtc) => ({
      status,
      dateUtc,
    })),
  )
  .flatMap((r) => [ME, OTHER].map((authorId) => ({ ...r, authorId })))
  .flatMap((r) => [null, 'hash'].map((passwordHash) => ({ ...r, passwordHash })))
  .map((r, i) => ({ ...r, id: i + 1 }));

const CALLERS: [string, AuthUser | null][] = [
  ['anonymous', null],
  ...(['subscriber', 'contributor', 'author', 'editor', 'administrator'] as Role[]).map((role): [string, AuthUser] => [
    role,
    toAuthUser({ id: ME, login: role, role }),
  ]),
];

/**
 * "Who may see a post of this status" and "who may see its protected content" exist once each, as a
 * rule in code and as its SQL twin; these tests hold the twins to each other for every status × role,
 * on a real SQL engine, and pin the rule itself to behaviour.md §3 and §7.
 */
describe('post visibility', () => {
  let db: DataSource;
  const matching = async (condition: SqlCondition): Promise<number[]> => {
    const rows = await db
      .createQueryBuilder()
      .select('p.id', 'id')
      .from('posts', 'p')
      .where(condition.sql, condition.params)
      .orderBy('p.id')
      .getRawMany<{ id: number }>();
    return rows.map((r) => Number(r.id));
  };

  beforeAll(async () => {
    db = new DataSource({ type: 'better-sqlite3', driver: loadSqliteDriver().driver, database: ':memory:' });
    await db.initialize();
    await db.query(
      'CREATE TABLE posts (id integer PRIMARY KEY, status varchar(20), date_utc varchar(19), author_id integer, password_hash varchar(255))',
    );
    for (const r of ROWS) {
      await db.query('INSERT INTO posts VALUES (?, ?, ?, ?, ?)', [
        r.id,
        r.status,
        r.dateUtc,
        r.authorId,
        r.passwordHash,
      ]);
    }
  });
  afterAll(async () => {
    await db.destroy();
  });

  it.each(CALLERS)('lists for %s exactly what the in-memory rule shows', async (_name, user) => {
    const scope = listScopeFor(user, undefined);
    const expected = ROWS.filter((r) => isInScope(scope, r, NOW)).map((r) => r.id);
    expect(await matching(scopeCondition('p', scope, NOW))).toEqual(expected);
  });

  it.each(CALLERS)('shows protected content to %s exactly as the in-memory rule does', async (_name, user) => {
    const listed = ROWS.filter((r) => r.status !== 'trash');
    const expected = listed.filter((r) => contentVisible(user, r)).map((r) => r.id);
    const sql = await matching(contentVisibleCondition(user, 'p'));
    expect(sql.filter((id) => listed.some((r) => r.id === id))).toEqual(expected);
  });

  const visibleStatuses = (user: AuthUser | null, authorId: number) =>
    ROWS.filter(
      (r) => r.authorId === authorId && r.passwordHash === null && isInScope(listScopeFor(user, undefined), r, NOW),
    ).map((r) => (r.status === 'future' ? `future@${r.dateUtc.slice(0, 4)}` : r.status));

  it('shows anonymous callers and subscribers published posts, scheduled ones from their date on', () => {
    for (const user of [null, CALLERS[1][1]]) {
      expect(visibleStatuses(user, OTHER)).toEqual(['publish', 'future@2030']);
    }
  });

  it('shows authors and contributors their own posts of every status but trash, others’ published ones', () => {
    for (const role of ['author', 'contributor'] as const) {
      const user = toAuthUser({ id: ME, login: role, role });
      expect(visibleStatuses(user, ME)).toEqual([
        'publish',
        'future@2030',
        'future@2031',
        'draft',
        'pending',
        'private',
      ]);
      expect(visibleStatuses(user, OTHER)).toEqual(['publish', 'future@2030']);
    }
  });

  it('shows editors everyone’s posts of every status but trash', () => {
    const editor = toAuthUser({ id: ME, login: 'editor', role: 'editor' });
    expect(visibleStatuses(editor, OTHER)).toEqual([
      'publish',
      'future@2030',
      'future@2031',
      'draft',
      'pending',
      'private',
    ]);
  });
});
