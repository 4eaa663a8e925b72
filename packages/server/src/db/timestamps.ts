/**
 * An instant as PostgreSQL reads it, for every year a Date holds. toISOString()
 * writes years past 9999 and before 0 in the expanded form (+010000-…, -000001-…),
 * which PostgreSQL refuses ("time zone displacement out of range"), and has a
 * year 0 that PostgreSQL has not. PostgreSQL takes the year's plain digits,
 * with BC for years before 1 (year 0 is 1 BC).
 */
export function postgresTimestamp(at: Date): string {
  const year = at.getUTCFullYear();
  const iso = at.toISOString();
  if (year >= 1 && year <= 9999) return iso;
  const rest = iso.slice(iso.indexOf('-', 1));
  return year > 0 ? `${year}${rest}` : `${String(1 - year).padStart(4, '0')}${rest} BC`;
}

/** A statement's parameters with each Date outside years 1 to 9999 in postgresTimestamp's form; the same array when there is none. */
export function postgresParameters(parameters: readonly unknown[]): readonly unknown[] {
  let out: unknown[] | null = null;
  for (let i = 0; i < parameters.length; i++) {
    const value = parameters[i];
    if (!(value instanceof Date)) continue;
    const year = value.getUTCFullYear();
    if (Number.isNaN(year) || (year >= 1 && year <= 9999)) continue;
    out ??= [...parameters];
    out[i] = postgresTimestamp(value);
  }
  return out ?? parameters;
}
