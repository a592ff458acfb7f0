/** Paging arithmetic and the list envelope shared by every collection route (behaviour.md §7–§9). */
import { jsonTextOf, PreparedJson } from '../http/prepared-json';

export const DEFAULT_PER_PAGE = 10;

export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

export function resolvePageRequest(
  page: number | undefined,
  perPage: number | undefined,
  maxPerPage: number,
): PageRequest {
  const p = page && page > 0 ? page : 1;
  const size = Math.min(perPage && perPage > 0 ? perPage : DEFAULT_PER_PAGE, maxPerPage);
  return { page: p, perPage: size, offset: (p - 1) * size };
}

export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined | null;

/** Serialises a query: lists as CSV (which every list parameter accepts back), empty values left out. */
export function toQueryString(query: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.append(key, value.join(','));
    } else {
      params.append(key, String(value));
    }
  }
  return params.toString();
}

export interface ListEnvelopeInput<T> {
  /** The collection's key in the body: `events`, `venues`, `categories`… */
  key: string;
  items: T[];
  total: number;
  page: PageRequest;
  /** Absolute URL of the collection, without a query. */
  collectionUrl: string;
  /** The effective query (defaults included); `page` and `per_page` are added here. */
  query: Record<string, QueryValue>;
}

/** A list answer: the body, and the headers an interceptor copies onto the response. */
export class ListResponse {
  constructor(
    /** Text when some items came as text (event documents). */
    readonly body: Record<string, unknown> | PreparedJson,
    readonly headers: Record<string, string>,
  ) {}
}

export function totalPages(total: number, perPage: number): number {
  return total === 0 ? 0 : Math.ceil(total / perPage);
}

/** Whether `page` lies past the last page; page 1 of an empty list is never out of range. */
export function isBeyondLastPage(page: PageRequest, total: number): boolean {
  return page.page > 1 && page.page > totalPages(total, page.perPage);
}

export function buildListResponse<T>(input: ListEnvelopeInput<T>): ListResponse {
  const { page, total } = input;
  const pages = totalPages(total, page.perPage);
  const urlFor = (n: number): string => {
    const qs = toQueryString({ ...input.query, page: n, per_page: page.perPage });
    return `${input.collectionUrl}?${qs}`;
  };
  const body: Record<string, unknown> = { [input.key]: input.items, rest_url: urlFor(page.page) };
  const links: string[] = [];
  if (page.page < pages) {
    body.next_rest_url = urlFor(page.page + 1);
    links.push(`<${body.next_rest_url as string}>; rel="next"`);
  }
  if (page.page > 1) {
    body.previous_rest_url = urlFor(Math.min(page.page - 1, Math.max(pages, 1)));
    links.push(`<${body.previous_rest_url as string}>; rel="prev"`);
  }
  body.total = total;
  body.total_pages = pages;
  const headers: Record<string, string> = {
    'X-TEC-Total': String(total),
    'X-TEC-TotalPages': String(pages),
    'X-WP-Total': String(total),
    'X-WP-TotalPages': String(pages),
  };
  if (links.length > 0) headers.Link = links.join(', ');
  return new ListResponse(
    input.items.some((item) => item instanceof PreparedJson) ? spliced(body, input) : body,
    headers,
  );
}

/** The body as the text `res.json` would send, with the items' prepared texts spliced in as they are. */
function spliced<T>(body: Record<string, unknown>, input: ListEnvelopeInput<T>): PreparedJson {
  // The items' key comes first, so the envelope without them starts with it and an empty list.
  const head = `{${JSON.stringify(input.key)}:[`;
  const rest = JSON.stringify({ ...body, [input.key]: [] }).slice(head.length + 1);
  const items = input.items.map((item) => jsonTextOf(item as object)).join(',');
  return new PreparedJson(`${head}${items}]${rest}`);
}
