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
