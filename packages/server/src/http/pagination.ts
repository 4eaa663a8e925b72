import type { FastifyRequest } from 'fastify';
import type { Page } from '@billow/contract';
import type { PageRequest } from '../lib/pagination.js';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 10;
export const CATALOG_PAGE_SIZE = 100;
const MAX_PAGE = 10_000_000;

export type { PageRequest };

export function pageRequest(
  query: { page?: number; page_size?: number },
  defaultSize: number = DEFAULT_PAGE_SIZE,
): PageRequest {
  // Beyond any real list; keeps the offset a number the database takes (page=1e300 is an integer too).
  const page = Math.min(query.page ?? 1, MAX_PAGE);
  const pageSize = Math.min(query.page_size ?? defaultSize, MAX_PAGE_SIZE);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

function pageUrl(request: FastifyRequest, page: number): string {
  const [path, search = ''] = request.originalUrl.split('?', 2) as [string, string?];
  const params = new URLSearchParams(search);
  params.set('page', String(page));
  return `${request.protocol}://${request.host}${path}?${params.toString()}`;
}

/** The list envelope with absolute links; a page past the end is empty, not an error. */
export function pageOf<T>(request: FastifyRequest, at: PageRequest, count: number, results: T[]): Page<T> {
  const hasNext = at.offset + results.length < count && results.length > 0;
  const lastPage = Math.max(1, Math.ceil(count / at.pageSize));
  return {
    count,
    next: hasNext ? pageUrl(request, at.page + 1) : null,
    previous: at.page > 1 ? pageUrl(request, Math.min(at.page - 1, lastPage)) : null,
    results,
  };
}
