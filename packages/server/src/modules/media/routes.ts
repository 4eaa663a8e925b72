import { ErrorBody, MediaUpload, MediaUploadCreate } from '@billow/contract';
import { Type } from 'typebox';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { mediaNotFound } from './errors.js';
import { isPublicKey } from './keys.js';
import { LocalDiskStore } from './local-store.js';
import { localStoreRoutes } from './local-routes.js';
import { sendFile } from './serve.js';
import { requestBaseUrl, type MediaService } from './service.js';
import { scopeOf } from '../../http/scope.js';
import { answerKeeper } from '../../http/idempotency.js';

const PUBLIC_REDIRECT_TTL_SECONDS = 60 * 60;

export function mediaRoutes(app: App, media: MediaService): void {
  app.post(
    '/api/v1/media/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags: ['Media'],
        summary: 'Create a presigned upload',
        description:
          'Returns a form upload valid for one hour: POST multipart/form-data to `url` with every field of `fields`, then the file as a final `file` field; success is 204. Pass `fileKey` in `imageKeys` or `fileKeys` within the hour.',
        body: MediaUploadCreate,
        response: { 200: MediaUpload, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request, reply) => media.createUpload(scopeOf(request), request.body, requestBaseUrl(request), answerKeeper(request, reply, 200)),
  );

  const store = media.store;
  app.get(
    '/media/public/*',
    { config: { auth: 'public' }, schema: { hide: true, params: Type.Object({ '*': Type.String() }) } },
    async (request, reply) => {
      const key = `public/${request.params['*']}`;
      if (!isPublicKey(key)) throw mediaNotFound();
      if (store.inlineUrl) {
        reply.header('cache-control', 'private, max-age=300');
        return reply.redirect(await store.inlineUrl(key, PUBLIC_REDIRECT_TTL_SECONDS), 302);
      }
      if (!(store instanceof LocalDiskStore)) throw mediaNotFound();
      const object = await store.open(key);
      if (!object) throw mediaNotFound();
      // A key is never written twice, so what it serves never changes.
      return sendFile(reply, object, { 'cache-control': 'public, max-age=31536000, immutable' });
    },
  );

  if (store instanceof LocalDiskStore) localStoreRoutes(app, store, media);
  app.addHook('onClose', () => media.close());
}
