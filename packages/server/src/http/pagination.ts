import type { FastifyRequest } from 'fastify';
import { COUNT_CAP, type CountMode, type Page } from '@billow/contract';
import type { ListOrder, PageRequest, SortDirection } from '../lib/pagination.js';
import { badRequest } from './errors.js';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 10;
export const CATALOG_PAGE_SIZE = 100;
const MAX_PAGE = 10_000_000;

export type { ListOrder, PageRequest };

export function pageRequest(
  query: { page?: number; page_size?: number; count?: CountMode },
  defaultSize: number = DEFAULT_PAGE_SIZE,
): PageRequest {
  // Beyond any real list; keeps the offset a number the database takes (page=1e300 is an integer too).
  const page = Math.min(query.page ?? 1, MAX_PAGE);
  const pageSize = Math.min(query.page_size ?? defaultSize, MAX_PAGE_SIZE);
  const offset = (page - 1) * pageSize;
  // A capped count (decision 0089) reads 10,000 rows, or to the end of the page asked: past it, `next` is still known.
  return query.count === 'capped' ? { page, pageSize, offset, countUpTo: Math.max(COUNT_CAP, offset + pageSize) } : { page, pageSize, offset };
}

function pageUrl(request: FastifyRequest, page: number): string {
  const [path, search = ''] = request.originalUrl.split('?', 2) as [string, string?];
  const params = new URLSearchParams(search);
  params.set('page', String(page));
  return `${request.protocol}://${request.host}${path}?${params.toString()}`;
}

/**
 * The list envelope with absolute links; a page past the end is empty, not an error. With
 * `count=capped` (`at.countUpTo`, decision 0089) it says in `countCapped` whether `count` is a
 * floor (`capped`: more rows exist than it says, so past this page too); otherwise it is as the reference has it.
 */
export function pageOf<T>(request: FastifyRequest, at: PageRequest, count: number, results: T[], capped = false): Page<T> {
  const hasNext = results.length > 0 && (capped || at.offset + results.length < count);
  const lastPage = Math.max(1, Math.ceil(count / at.pageSize));
  const page: Page<T> = {
    count,
    next: hasNext ? pageUrl(request, at.page + 1) : null,
    previous: at.page > 1 ? pageUrl(request, Math.min(at.page - 1, lastPage)) : null,
    results,
  };
  return at.countUpTo == null ? page : { ...page, countCapped: capped };
}

/**
 * The `sort` and `order` of a list (Billow's extension, decision 0079), already checked
 * against the list's fields by its query schema; `descending` names the fields (dates,
 * amounts) whose order is desc unless told. `order` alone is refused: it has nothing to turn.
 */
export function listOrder<F extends string>(
  query: { sort?: unknown; order?: SortDirection },
  fields: readonly F[],
  descending: readonly NoInfer<F>[],
): ListOrder<F> | null {
  const { sort, order } = query;
  if (sort === undefined) {
    if (order !== undefined) throw badRequest('query parameter order needs sort: name the field to order by', 'validation_error');
    return null;
  }
  const field = fields.find((f) => f === sort);
  if (field === undefined) throw badRequest(`query parameter sort must be one of ${fields.join(', ')}`, 'validation_error');
  return { field, direction: order ?? (descending.includes(field) ? 'desc' : 'asc') };
}
