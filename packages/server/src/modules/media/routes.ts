import { ErrorBody, MediaFileForm, MediaFileReceived, MediaUpload, MediaUploadCreate } from '@billow/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { fileFieldMissing, mediaNotFound, unknownFormField } from './errors.js';
import { isPublicKey } from './keys.js';
import { LocalDiskStore } from './local-store.js';
import { localStoreRoutes } from './local-routes.js';
import { multipartScope, receiveMultipart } from './multipart-routes.js';
import { sendFile } from './serve.js';
import { requestBaseUrl, type MediaService } from './service.js';
import type { ObjectInfo, ObjectStore } from './store.js';
import { scopeOf } from '../../http/scope.js';
import { answerKeeper } from '../../http/idempotency.js';

/** A public key is never written twice, so what it serves never changes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

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
  uploadThroughBillow(app, media);

  const store = media.store;
  app.get(
    '/media/public/*',
    { config: { auth: 'public' }, schema: { hide: true, params: Type.Object({ '*': Type.String() }) } },
    async (request, reply) => {
      const key = `public/${request.params['*']}`;
      if (!isPublicKey(key)) throw mediaNotFound();
      return servePublic(store, key, request, reply);
    },
  );

  if (store instanceof LocalDiskStore) localStoreRoutes(app, store, media);
  app.addHook('onClose', () => media.close());
}

/**
 * A public image, streamed from storage whichever it is (decision 0103): pages allow images
 * from their own origin only. A request that holds the current ETag gets 304 without the bytes.
 */
async function servePublic(store: ObjectStore, key: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const held = request.headers['if-none-match'];
  if (held || request.method === 'HEAD') {
    const info = await store.head(key);
    if (!info) throw mediaNotFound();
    if (held && info.etag && held.split(',').some((tag) => tag.trim().replace(/^W\//, '') === info.etag)) {
      return reply.code(304).headers({ etag: info.etag, 'cache-control': IMMUTABLE }).send();
    }
    // HEAD: the headers without reading the bytes (an empty stream keeps the content-length that sendFile sets).
    if (request.method === 'HEAD') return sendFile(reply, { info, stream: Readable.from([]) }, publicHeaders(info));
  }
  const object = await store.open(key);
  if (!object) throw mediaNotFound();
  return sendFile(reply, object, publicHeaders(object.info));
}

const publicHeaders = (info: ObjectInfo) => ({ 'cache-control': IMMUTABLE, ...(info.etag ? { etag: info.etag } : {}) });

/** The file of a multipart body whose only field is `file`, streamed into storage by the media service. */
async function receiveFile(request: FastifyRequest, media: MediaService): Promise<MediaFileReceived> {
  for await (const part of request.parts()) {
    if (part.type === 'field' || part.fieldname !== 'file') throw unknownFormField(part.fieldname);
    return media.receive(scopeOf(request), { fileName: part.filename, fileType: part.mimetype }, part.file);
  }
  throw fileFieldMissing();
}

/** POST /api/v1/media/upload/: the file itself, with the credentials of any API call (decision 0103). */
function uploadThroughBillow(app: App, media: MediaService): void {
  const maxUploadBytes = media.maxUploadBytes;
  multipartScope(app, maxUploadBytes, (scope) => {
    scope.post(
      '/api/v1/media/upload/',
      {
        config: { auth: SERVER_ONLY },
        // The body is a stream, read by the handler: the schema documents it and checks nothing.
        validatorCompiler: () => () => true,
        schema: {
          tags: ['Media'],
          summary: 'Upload a file through Billow',
          description:
            "Billow extension (decision 0103): the file itself as multipart/form-data, in a field named `file` (its only field), with the same size limit as POST /media/'s form. " +
            'Billow streams it to the configured storage (local disk or S3) and answers its `fileKey`, to pass in `imageKeys`, `fileKeys` or `logoImageKey` within the hour. ' +
            "For clients that may send only to Billow's own origin, such as the dashboard; other clients may use POST /media/ and its form. " +
            'An Idempotency-Key is matched by the path alone: the file is not compared.',
          consumes: ['multipart/form-data'],
          body: MediaFileForm,
          response: { 201: MediaFileReceived, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody },
        },
      },
      async (request, reply) => {
        const received = await receiveMultipart(request, maxUploadBytes, () => receiveFile(request, media));
        return reply.code(201).send(received);
      },
    );
  });
}
