import { parse as parseQueryString } from 'fast-querystring';
import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { camelToSnake, renameKeysDeep, snakeToCamel } from '../lib/casing.js';
import { ApiError } from './errors.js';
import { assertStorableText, assertShallow } from './input-guards.js';

/**
 * Request bodies are accepted in camelCase or snake_case, deeply, and handed to
 * handlers in camelCase; `metadata` contents are left as sent. Non-JSON bodies
 * are refused with 415 because no other parser is registered.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    /^application\/([a-z0-9.+-]*\+)?json(;|$)/i,
    { parseAs: 'string' },
    (_request, body, done) => {
      const text = String(body).trim();
      if (text === '') return done(null, undefined);
      let parsed: unknown;
      try {
        assertShallow(text);
        parsed = secureJson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });
      } catch (error) {
        if (error instanceof ApiError) return done(error);
        const reason = error instanceof Error ? error.message : 'it could not be parsed';
        return done(new ApiError(400, 'invalid_json', `The request body is not valid JSON: ${reason}`));
      }
      try {
        assertStorableText(text, parsed);
      } catch (error) {
        return done(error as ApiError);
      }
      done(null, renameKeysDeep(parsed, snakeToCamel));
    },
  );
}

/**
 * Query parameters are documented in snake_case; camelCase names are accepted too. A
 * parameter given under both names keeps both values, so validation refuses the pair
 * as it refuses a repeated parameter, rather than one silently winning.
 */
export function parseQuery(query: string): Record<string, unknown> {
  const parsed = parseQueryString(query);
  // No prototype: `__proto__` and `constructor` are plain names here, as in fast-querystring's own result.
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key in parsed) {
    const name = camelToSnake(key);
    out[name] = Object.hasOwn(out, name) ? [out[name], parsed[key]].flat() : parsed[key];
  }
  return out;
}
