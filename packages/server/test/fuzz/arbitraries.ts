/**
 * fast-check arbitraries for fuzzing Billow's HTTP API from its own OpenAPI
 * document: values that mostly follow an operation's JSON schemas (so that
 * requests reach the handlers), mixed with hostile ones (NUL bytes, huge and
 * negative numbers, deep nesting, long strings, malformed ids and escapes).
 */
import fc from 'fast-check';

export type JsonSchema = Record<string, any>;

/** Strings that have broken servers: each is sent as it is, in JSON, paths and queries. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(3),
  '%00',
  '%ZZ',
  '%',
  '..',
  '../../etc/passwd',
  "' OR 1=1 --",
  '\uD800',
  '💸',
  'null',
  'NaN',
  '-1',
  '0',
  '99999999999',
  '9223372036854775808',
  '1e309',
  '2026-13-45',
  '__proto__',
  'constructor',
  'x'.repeat(5_000),
] as const;

export const HOSTILE_NUMBERS = [
  -1,
  0,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  -(2 ** 53),
  1e15 + 1,
  1e20,
  1e300,
  -1e300,
  0.5,
  99999999999,
] as const;

/** `depth` levels of nested objects (or arrays): the input that overflowed recursive checks. */
export const nestedText = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

export function nested(depth: number, kind: 'object' | 'array' = 'object'): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = kind === 'object' ? { a: value } : [value];
  return value;
}

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(...HOSTILE_STRINGS),
  fc.constantFrom<unknown>(...HOSTILE_NUMBERS),
  fc.constantFrom<unknown>(null, true, false, [], {}, [null], { '': null }),
  // Deep enough to pass any sane limit; 5,000 levels go as text (fuzz.test.ts), past JSON.stringify's stack.
  fc.constantFrom(nested(300), nested(300, 'array'), nested(40)),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.jsonValue({ maxDepth: 3 }),
);

const hostileNumber = fc.oneof(fc.constantFrom<unknown>(...HOSTILE_NUMBERS), fc.constantFrom<unknown>(...HOSTILE_NUMBERS).map(String));

/** A hostile value aimed at the schema's type, or at anything. */
function hostileFor(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const type = schema?.type ?? schema?.anyOf?.[0]?.type;
  if (type === 'integer' || type === 'number') return fc.oneof({ weight: 3, arbitrary: hostileNumber }, { weight: 1, arbitrary: hostileValue });
  if (type === 'string') return fc.oneof({ weight: 3, arbitrary: fc.constantFrom<unknown>(...HOSTILE_STRINGS) }, { weight: 1, arbitrary: hostileValue });
  return hostileValue;
}

/** Values for a schema: mostly what it allows, sometimes not. */
export function valueFor(schema: JsonSchema | undefined, known: readonly string[], depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3, arbitrary: validFor(schema, known, depth) }, { weight: 1, arbitrary: hostileFor(schema) });
}

function stringFor(schema: JsonSchema, known: readonly string[]): fc.Arbitrary<unknown> {
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'uuid') return fc.oneof(fc.uuid(), fc.constantFrom(...known));
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'date') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  const maxLength = Math.min(schema.maxLength ?? 30, 30);
  const minLength = Math.min(schema.minLength ?? 0, maxLength);
  return fc.oneof(fc.string({ minLength, maxLength }), fc.constantFrom(...known));
}

function objectFor(schema: JsonSchema, known: readonly string[], depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const names = Object.keys(properties);
  if (names.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of names) shape[name] = valueFor(properties[name], known, depth + 1);
  const required = ((schema.required ?? []) as string[]).filter((name) => names.includes(name));
  const record = fc.record(shape, { requiredKeys: required });
  // Sometimes a required field goes missing, or an unknown one comes along.
  return fc.tuple(record, fc.boolean(), fc.option(fc.string({ minLength: 1, maxLength: 12 }))).map(([value, dropOne, extra]) => {
    const out = { ...(value as Record<string, unknown>) };
    if (dropOne && required.length > 0) delete out[required[0]!];
    if (extra !== null) out[extra] = 'extra';
    return out;
  });
}

/** What the schema allows, as far as a fuzzer needs: types, enums, bounds and shapes. */
export function validFor(schema: JsonSchema | undefined, known: readonly string[], depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 2 });
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants) return fc.oneof(...variants.map((variant) => validFor(variant, known, depth)));
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  switch (schema.type) {
    case 'string':
      return stringFor(schema, known);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.oneof(fc.integer({ min: -1_000, max: 1_000_000 }), fc.double({ min: 0, max: 1_000, noNaN: true }));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valueFor(schema.items, known, depth + 1), { maxLength: Math.min(schema.maxItems ?? 3, 3) });
    case 'object':
      return objectFor(schema, known, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value as text for a path segment or a query value: encoded, or raw when it is a hostile escape. */
export function urlText(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  if (['%00', '%ZZ', '%'].includes(text)) return text;
  try {
    return encodeURIComponent(text);
  } catch {
    // A lone surrogate has no UTF-8 form: send the bytes of one anyway (invalid UTF-8).
    return '%ED%A0%80';
  }
}
