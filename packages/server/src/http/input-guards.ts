import type { FastifyInstance } from 'fastify';
import { ApiError, badRequest } from './errors.js';

/** Deepest nesting a JSON body may have: Billow's own bodies nest 6 levels; metadata gets the rest. */
export const MAX_JSON_DEPTH = 32;

/**
 * The deepest nesting of arrays and objects in JSON text, counted without parsing (and
 * without recursion), so that a hostile body cannot exhaust the stack of any later step.
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) deepest = Math.max(deepest, ++depth);
    else if (c === 125 || c === 93) depth--;
  }
  return deepest;
}

/** Refuses JSON text nested deeper than MAX_JSON_DEPTH; cheap when it cannot be. */
export function assertShallow(text: string): void {
  let brackets = 0;
  for (let i = text.indexOf('{'); i !== -1 && brackets <= MAX_JSON_DEPTH; i = text.indexOf('{', i + 1)) brackets++;
  for (let i = text.indexOf('['); i !== -1 && brackets <= MAX_JSON_DEPTH; i = text.indexOf('[', i + 1)) brackets++;
  if (brackets <= MAX_JSON_DEPTH) return;
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    throw new ApiError(400, 'too_deep', `The request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`);
  }
}

/** The path to the first string (key or value) holding a NUL character, or null. */
export function nulPath(value: unknown, path = ''): string | null {
  const stack: Array<[unknown, string]> = [[value, path]];
  while (stack.length > 0) {
    const [current, at] = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return at || 'the body';
    } else if (Array.isArray(current)) {
      current.forEach((item, i) => stack.push([item, `${at}[${i}]`]));
    } else if (current !== null && typeof current === 'object') {
      for (const [key, inner] of Object.entries(current)) {
        const inside = at ? `${at}.${key}` : key;
        if (key.includes('\u0000')) return inside;
        stack.push([inner, inside]);
      }
    }
  }
  return null;
}

/** PostgreSQL text cannot hold NUL: a body that has one is refused before anything reads it. */
export function assertNoNul(text: string, parsed: unknown): void {
  if (!/\\u0000/i.test(text)) return;
  const at = nulPath(parsed);
  if (at !== null) throw badRequest(`${at}: text may not contain the NUL character (\\u0000)`, 'invalid_character');
}

/**
 * URLs with a NUL byte (%00) are refused at the edge, before any route reads an id or
 * a query value from them; during shutdown, new requests are turned away.
 */
export function registerInputGuards(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback style: on every request, an async hook would cost a promise and a microtask.
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) {
      reply.header('connection', 'close');
      return done(new ApiError(503, 'shutting_down', 'Billow is shutting down; retry on another instance or in a moment'));
    }
    const url = request.raw.url ?? '';
    if (url.includes('%00') || url.includes('\u0000')) {
      return done(badRequest('The URL may not contain the NUL character (%00)', 'invalid_character'));
    }
    done();
  });
}
