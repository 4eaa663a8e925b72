/** Which page of a list a caller asked for, as a row offset; the query parameters that name it are src/http/pagination.ts's. */
export interface PageRequest {
  page: number;
  pageSize: number;
  offset: number;
  /** With `count=capped` (decision 0089): how many rows the count reads at most; absent or null, it counts every row. */
  countUpTo?: number | null;
}

export type SortDirection = 'asc' | 'desc';

/** The order a list was asked for with Billow's `sort` and `order` (decision 0079); null keeps the list's own order. */
export interface ListOrder<F extends string = string> {
  field: F;
  direction: SortDirection;
}
