import type { ExpressionBuilder } from 'kysely';

/** A LIKE/ILIKE pattern that matches `term` anywhere, with its own % and _ taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/** Matches the customer joined as `c` by its customerId, or by its id when `ref` has the shape of a UUID. */
export function isCustomer(ref: string) {
  return <DB, TB extends keyof DB & string>(eb: ExpressionBuilder<DB, TB>) => {
    const any = eb as unknown as ExpressionBuilder<{ c: { id: string; customer_id: string } }, 'c'>;
    const byCustomerId = any('c.customer_id', '=', ref);
    return (isUuid(ref) ? any.or([byCustomerId, any('c.id', '=', ref)]) : byCustomerId) as never;
  };
}

/** Matches a row by its identifier, or by its id when `ref` has the shape of a UUID. */
export function refersTo(ref: string) {
  return <DB, TB extends keyof DB & string>(eb: ExpressionBuilder<DB, TB>) => {
    const any = eb as unknown as ExpressionBuilder<{ t: { id: string; identifier: string } }, 't'>;
    const byIdentifier = any('identifier', '=', ref);
    return (isUuid(ref) ? any.or([byIdentifier, any('id', '=', ref)]) : byIdentifier) as never;
  };
}
