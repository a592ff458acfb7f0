import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { prefixRange, wordsOf } from '../../../common/search/search-words';
import { applyTokenSearchAcrossFields } from '../../../core/posts/post-query';
import type { SqlCondition } from '../../../core/posts/post-visibility';

/**
 * How a search token matches: a single word matches events with a word starting with it, through the word
 * index; a token of several words (a quoted phrase, "jazz-night") must appear as written, case-insensitively,
 * in one field; a token without letters or digits matches everything.
 */
export type TokenMatch = { kind: 'word'; word: string } | { kind: 'phrase'; text: string } | { kind: 'none' };

export function tokenMatch(token: string): TokenMatch {
  const words = wordsOf(token);
  if (words.length === 0) return { kind: 'none' };
  return words.length === 1 ? { kind: 'word', word: words[0] } : { kind: 'phrase', text: token };
}

/**
 * Every token must match the title, or the excerpt or description where `visible` lets the caller read
 * them (others would learn what a password blanks). `p` is the posts alias.
 */
export function applyEventSearch<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  tokens: string[],
  visible: SqlCondition,
): void {
  const matches = tokens.map(tokenMatch);
  if (matches.some((m) => m.kind !== 'none')) qb.setParameters(visible.params);
  matches.forEach((match, i) => {
    if (match.kind !== 'word') return;
    const { from, to } = prefixRange(match.word);
    qb.andWhere(
      `EXISTS (SELECT 1 FROM event_search_words sw${i} WHERE sw${i}.post_id = p.id` +
        ` AND sw${i}.word >= :swFrom${i} AND sw${i}.word < :swTo${i}` +
        ` AND (sw${i}.in_title = 1 OR (sw${i}.in_body = 1 AND ${visible.sql})))`,
      { [`swFrom${i}`]: from, [`swTo${i}`]: to },
    );
  });
  const phrases = matches.flatMap((m) => (m.kind === 'phrase' ? [m.text] : []));
  applyTokenSearchAcrossFields(qb, phrases, [
    'p.title',
    `CASE WHEN ${visible.sql} THEN p.excerpt ELSE '' END`,
    `CASE WHEN ${visible.sql} THEN p.content ELSE '' END`,
  ]);
}
