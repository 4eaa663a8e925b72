import { Type } from 'typebox';
import type { FastifyReply } from 'fastify';
import type { App } from '../../http/route-types.js';
import { pageHeaders } from '../../page-kit/headers.js';
import type { DashboardFiles } from './files.js';

/**
 * The dashboard's policy (decision 0081): its own scripts, styles, images and API calls only.
 * No inline script or style is needed (Vite's build has none; React sets styles through the
 * CSSOM, which a policy does not govern), so none is allowed. `imageOrigin`: where the API
 * links public images when the operator serves them from elsewhere (BILLOW_S3_PUBLIC_URL,
 * decision 0103), for pictures only; uploads and every other call stay on Billow's origin.
 */
export function dashboardCsp(imageOrigin: string | null = null): string {
  const images = imageOrigin ? `'self' data: ${imageOrigin}` : "'self' data:";
  return `default-src 'self'; script-src 'self'; style-src 'self'; img-src ${images}; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
}

const Asset = Type.Object({ file: Type.String({ maxLength: 200 }) });

function sendIndex(reply: FastifyReply, files: DashboardFiles, csp: string): FastifyReply {
  if (!files.index) {
    return reply.code(503).type('application/json; charset=utf-8').send({ detail: 'The dashboard is not built: run npm run build.', code: 'dashboard_not_built' });
  }
  // The page itself is never cached, so that a new build's assets are picked up at once.
  return pageHeaders(reply)
    .header('content-security-policy', csp)
    .header('cache-control', 'no-cache')
    .type('text/html; charset=utf-8')
    .send(files.index);
}

/** GET /dashboard/ (with or without its slash) and every client route under it answer the single page; /dashboard/assets/* the built files. */
export function dashboardAppRoutes(app: App, files: DashboardFiles, csp: string = dashboardCsp()): void {
  const page = { schema: { hide: true }, config: { rateLimit: false as const } };
  app.get('/dashboard/', page, async (_request, reply) => sendIndex(reply, files, csp));

  app.get('/dashboard/assets/:file', { ...page, schema: { hide: true, params: Asset } }, async (request, reply) => {
    const asset = files.assets.get(request.params.file);
    if (!asset) return reply.code(404).type('application/json; charset=utf-8').send({ detail: 'No such dashboard file.', code: 'not_found' });
    return pageHeaders(reply)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-security-policy', csp)
      .type(asset.type)
      .send(asset.body);
  });

  app.get('/dashboard/*', page, async (request, reply) => {
    // The session API (/dashboard/api/…) has explicit routes; an unknown one is not a page.
    if (request.url.startsWith('/dashboard/api/')) {
      return reply.code(404).type('application/json; charset=utf-8').send({ detail: 'No such dashboard API operation.', code: 'not_found' });
    }
    return sendIndex(reply, files, csp);
  });
}
