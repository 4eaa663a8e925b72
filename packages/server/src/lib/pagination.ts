/** Which page of a list a caller asked for, as a row offset; the query parameters that name it are src/http/pagination.ts's. */
export interface PageRequest {
  page: number;
  pageSize: number;
  offset: number;
}
