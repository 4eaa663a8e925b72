import { parse as parseForm } from 'fast-querystring';
import type { FastifyInstance } from 'fastify';

const FORM_LIMIT = 16 * 1024;

/** Forms post url-encoded bodies: parsed only in the hosted pages' own plugin scope (the API takes JSON alone). */
export function acceptForms(pages: FastifyInstance): void {
  pages.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT }, (_request, body, done) => {
    done(null, parseForm(String(body)));
  });
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

export type Sent = Record<string, string | undefined>;

/** A query or form as text fields (the first of repeated ones); anything else is dropped. */
export function sentOf(fields: unknown): Sent {
  if (!fields || typeof fields !== 'object') return {};
  return Object.fromEntries(Object.entries(fields as Record<string, unknown>).map(([k, v]) => [k, textOf(v)]));
}
