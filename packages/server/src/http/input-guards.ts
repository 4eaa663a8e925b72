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

/** What keeps a string out of PostgreSQL: `text` cannot hold NUL, nor `json`/`jsonb` a lone surrogate. */
type TextFault = 'nul' | 'lone_surrogate';

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function faultOf(text: string): TextFault | null {
  if (text.includes('\u0000')) return 'nul';
  return LONE_SURROGATE.test(text) ? 'lone_surrogate' : null;
}

/** The path to the first string (key or value) that PostgreSQL cannot store as sent, and why; or null. */
export function unstorableTextPath(value: unknown, path = ''): { at: string; fault: TextFault } | null {
  const stack: Array<[unknown, string]> = [[value, path]];
  while (stack.length > 0) {
    const [current, at] = stack.pop()!;
    if (typeof current === 'string') {
      const fault = faultOf(current);
      if (fault) return { at: at || 'the body', fault };
    } else if (Array.isArray(current)) {
      current.forEach((item, i) => stack.push([item, `${at}[${i}]`]));
    } else if (current !== null && typeof current === 'object') {
      for (const [key, inner] of Object.entries(current)) {
        const inside = at ? `${at}.${key}` : key;
        const fault = faultOf(key);
        if (fault) return { at: inside, fault };
        stack.push([inner, inside]);
      }
    }
  }
  return null;
}

const FAULT_DETAIL: Record<TextFault, string> = {
  nul: 'text may not contain the NUL character (\\u0000)',
  lone_surrogate: 'text must be well-formed Unicode: a \\uD800-\\uDFFF escape must be half of a surrogate pair',
};

/**
 * Refuses a body PostgreSQL could not store as sent, before anything reads it: NUL in
 * `text`, and lone surrogates, which `text` would replace with U+FFFD (so the stored
 * value would differ from the answer) and `json` would keep as an escape no JSON
 * operator can read. Both arrive only as `\u` escapes, so other bodies are not walked.
 */
export function assertStorableText(text: string, parsed: unknown): void {
  if (!/\\u(?:0000|d[89a-f])/i.test(text)) return;
  const found = unstorableTextPath(parsed);
  if (found !== null) throw badRequest(`${found.at}: ${FAULT_DETAIL[found.fault]}`, 'invalid_character');
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
