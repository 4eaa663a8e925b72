import type { ExpressionBuilder } from 'kysely';

/** A LIKE/ILIKE pattern that matches `term` anywhere, with its own % and _ taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/** Matches a row by its identifier, or by its id when `ref` has the shape of a UUID. */
export function refersTo(ref: string) {
  return <DB, TB extends keyof DB & string>(eb: ExpressionBuilder<DB, TB>) => {
    const any = eb as unknown as ExpressionBuilder<{ t: { id: string; identifier: string } }, 't'>;
    const byIdentifier = any('identifier', '=', ref);
    return (isUuid(ref) ? any.or([byIdentifier, any('id', '=', ref)]) : byIdentifier) as never;
  };
}
