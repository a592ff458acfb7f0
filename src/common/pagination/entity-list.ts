/** One page of a plain table as a list answer: the administrators' lists (webhooks, imports, their logs). */
import type { EntityManager, EntityTarget, FindOptionsOrder, FindOptionsWhere, ObjectLiteral } from 'typeorm';
import { buildListResponse, type ListResponse, type PageRequest, type QueryValue } from './pagination';

export interface EntityListInput<E extends ObjectLiteral, T> {
  /** The collection's key in the body (`webhooks`, `runs`…). */
  key: string;
  where?: FindOptionsWhere<E>;
  /** A total order (ending in a unique column), so pages neither repeat nor skip a row. */
  order: FindOptionsOrder<E>;
  page: PageRequest;
  collectionUrl: string;
  /** The effective filters, echoed in the page links. */
  query?: Record<string, QueryValue>;
  /** Maps the page's rows at once, so a mapper can load what they refer to in one query. */
  toItems: (records: E[]) => T[] | Promise<T[]>;
}

export async function entityListResponse<E extends ObjectLiteral, T>(
  manager: EntityManager,
  entity: EntityTarget<E>,
  input: EntityListInput<E, T>,
): Promise<ListResponse> {
  const [records, total] = await manager.findAndCount(entity, {
    where: input.where,
    order: input.order,
    skip: input.page.offset,
    take: input.page.perPage,
  });
  return buildListResponse({
    key: input.key,
    items: await input.toItems(records),
    total,
    page: input.page,
    collectionUrl: input.collectionUrl,
    query: input.query ?? {},
  });
}
