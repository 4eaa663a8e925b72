import type { FastifyReply } from 'fastify';
import { REFERENCE_FAVICON } from '../../page-kit/reference-theme.js';
import { pageHeaders } from '../../page-kit/headers.js';
import type { App } from '../../http/route-types.js';
import { titleOf, type GuideLibrary } from './library.js';
import { GUIDES_STYLESHEET, guideIndex, guidePage } from './render.js';

/** Guides are text and pictures: no script, no form, nothing from elsewhere. */
const GUIDES_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const options = { config: { auth: 'public' as const }, schema: { hide: true } };

/** `/sandbox/docs/guides/…` shows the same guides, with its links kept under /sandbox. */
const rootOf = (url: string): string => (url.startsWith('/sandbox/') ? '/sandbox' : '');

function missingGuide(reply: FastifyReply, what: string) {
  return reply.code(404).type('text/plain; charset=utf-8').send(`No guide ${what} here. The list is at /docs/guides/.`);
}

/** docs/*.md, their decision records and screenshots, as pages under /docs/guides/ (linked from the API reference). */
export function guideRoutes(root: App, library: GuideLibrary): void {
  // In a scope of their own: the headers of these pages cost the API's routes nothing.
  void root.register(async (app: App) => {
    app.addHook('onRequest', async (_request, reply) => {
      pageHeaders(reply).header('content-security-policy', GUIDES_CSP);
    });
    pages(app, library);
  });
}

function pages(app: App, library: GuideLibrary): void {
  app.get('/docs/guides/', options, async (request, reply) =>
    reply.type('text/html; charset=utf-8').send(guideIndex(library.list(), rootOf(request.originalUrl))),
  );

  app.get('/docs/guides/assets/guides.css', options, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(GUIDES_STYLESHEET),
  );
  app.get('/docs/guides/assets/billow.svg', options, async (_request, reply) =>
    reply.type('image/svg+xml').header('cache-control', 'public, max-age=3600').send(REFERENCE_FAVICON),
  );

  app.get('/docs/guides/images/*', options, async (request, reply) => {
    const image = library.image((request.params as { '*': string })['*']);
    if (!image) return missingGuide(reply, 'image');
    return reply.type(image.type).header('cache-control', 'public, max-age=3600').send(image.bytes);
  });

  const page = async (name: string, url: string, reply: FastifyReply) => {
    const markdown = library.read(name.replace(/\.md$/, ''));
    if (markdown === null) return missingGuide(reply, `called "${name}"`);
    const title = titleOf(markdown, name);
    return reply.type('text/html; charset=utf-8').send(guidePage(markdown, title, rootOf(url)));
  };
  app.get('/docs/guides/:name', options, async (request, reply) => page((request.params as { name: string }).name, request.originalUrl, reply));
  app.get('/docs/guides/decisions/:name', options, async (request, reply) =>
    page(`decisions/${(request.params as { name: string }).name}`, request.originalUrl, reply),
  );
}
