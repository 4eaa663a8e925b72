import { Type, type Static, type TSchema } from 'typebox';

export const ErrorBody = Type.Object(
  {
    detail: Type.String({ description: 'Human-readable explanation of what went wrong' }),
    code: Type.String({ description: 'Stable snake_case name of the error' }),
  },
  { $id: 'Error', title: 'Error' },
);
export type ErrorBody = Static<typeof ErrorBody>;

/** The largest value of a PostgreSQL integer column: numbers that name such a row are bounded by it. */
export const INT4_MAX = 2_147_483_647;

export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, description: 'Page number, from 1' })),
  page_size: Type.Optional(
    Type.Integer({ minimum: 1, description: 'Results per page; values over 100 are capped at 100' }),
  ),
});
export type PageQuery = Static<typeof PageQuery>;

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * Billow's list extension (decision 0079): `sort` names one of the list's fields, `order`
 * its direction. Without `sort`, the list keeps its documented order; an unknown field or
 * direction is refused (400).
 */
export function ListSort<const F extends readonly string[]>(fields: F, defaults: string) {
  return {
    sort: Type.Optional(
      Type.Enum([...fields], {
        description: `Ours: the field to sort by (${fields.join(', ')}); ties go to the newest. Without it, ${defaults}`,
      }),
    ),
    order: Type.Optional(
      Type.Enum([...SORT_ORDERS], {
        description: 'Ours, with sort: asc or desc; by default desc for dates and amounts, asc for names and identifiers',
      }),
    ),
  };
}

/** Billow's list extension: a free-text search, matched anywhere in the fields the list names, in any case. */
export const SearchQuery = (fields: string) =>
  Type.Optional(Type.String({ maxLength: 200, description: `Ours: matches ${fields}, anywhere and in any case; blank: no search` }));

export function Paginated<T extends TSchema>(item: T, title: string) {
  return Type.Object(
    {
      count: Type.Integer({ description: 'Total number of results' }),
      next: Type.Union([Type.String({ format: 'uri' }), Type.Null()]),
      previous: Type.Union([Type.String({ format: 'uri' }), Type.Null()]),
      results: Type.Array(item),
    },
    { title },
  );
}

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export const Metadata = Type.Record(Type.String(), Type.Unknown(), {
  description: 'Free key/value pairs, stored and returned exactly as sent',
});

export const Timestamp = Type.String({ format: 'date-time' });

export const NullableString = (options: Record<string, unknown> = {}) =>
  Type.Union([Type.String(options), Type.Null()]);
