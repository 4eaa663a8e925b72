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
  /** Only with `count=capped` (Billow's extension, decision 0089): true when `count` is a floor, the list holding more rows. */
  countCapped?: boolean;
}

/** Rows a capped count reads at least (decision 0089): up to this many, `count` is exact. */
export const COUNT_CAP = 10_000;
export const COUNT_MODES = ['exact', 'capped'] as const;
export type CountMode = (typeof COUNT_MODES)[number];

/**
 * Billow's list extension (decision 0089): `count=capped` counts the list exactly up to
 * 10,000 rows (or the end of the page asked, if further) and says so in `countCapped`;
 * without it (`exact`, the reference's meaning) `count` is every row.
 */
export const CountQuery = {
  count: Type.Optional(
    Type.Enum([...COUNT_MODES], {
      description:
        `Ours: capped counts the list only up to ${COUNT_CAP.toLocaleString('en-US')} rows, or to the end of the page asked when that is further; ` +
        'the answer then carries countCapped, true when more rows exist than count says. Without it (exact), count is every row',
    }),
  ),
};

/** A list that takes `count=capped` (CountQuery): `countCapped` is in the body only when it was asked for. */
export function CappedPaginated<T extends TSchema>(item: T, title: string) {
  return Type.Object(
    {
      ...Paginated(item, title).properties,
      countCapped: Type.Optional(
        Type.Boolean({
          description: 'Ours, only with count=capped: true when the list holds more rows than count (a floor then), false when count is exact',
        }),
      ),
    },
    { title },
  );
}

export const Metadata = Type.Record(Type.String(), Type.Unknown(), {
  description: 'Free key/value pairs, stored and returned exactly as sent',
});

export const Timestamp = Type.String({ format: 'date-time' });

export const NullableString = (options: Record<string, unknown> = {}) =>
  Type.Union([Type.String(options), Type.Null()]);
