import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../http/route-types.js';
import { fileFieldMissing, fileFieldNotLast, mediaNotFound, unknownFormField } from './errors.js';
import { attachmentDisposition } from './file-names.js';
import { DOWNLOAD_PATH, type DownloadQuery, type LocalDiskStore, UPLOAD_FIELDS, UPLOAD_PATH } from './local-store.js';
import { multipartScope, receiveMultipart } from './multipart-routes.js';
import { sendFile } from './serve.js';
import type { MediaService } from './service.js';

const uploadFields = new Set<string>(UPLOAD_FIELDS);

/** The form's fields, then its file streamed into the store: the S3 form-upload protocol, each form once. */
async function receiveForm(request: FastifyRequest, store: LocalDiskStore, media: MediaService): Promise<void> {
  const fields: Record<string, string> = {};
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      if (!uploadFields.has(part.fieldname)) throw unknownFormField(part.fieldname);
      fields[part.fieldname] = String(part.value);
      continue;
    }
    if (part.fieldname !== 'file') throw fileFieldNotLast();
    const policy = await store.verifyUpload(fields);
    await media.throughFormOnce(policy.key, () => store.write(policy.key, policy.contentType, part.file, policy.maxBytes));
    return;
  }
  throw fileFieldMissing();
}

/** Routes that stand in for S3 when files are on local disk: the upload form target and signed downloads. */
export function localStoreRoutes(app: App, store: LocalDiskStore, media: MediaService): void {
  const maxUploadBytes = media.maxUploadBytes;
  multipartScope(app, maxUploadBytes, (scope) => {
    scope.post(UPLOAD_PATH, { config: { auth: 'public' }, schema: { hide: true } }, async (request, reply) => {
      // Browsers upload straight from the seller's pages; the answer holds nothing secret.
      reply.header('access-control-allow-origin', '*');
      await receiveMultipart(request, maxUploadBytes, () => receiveForm(request, store, media));
      return reply.code(204).send();
    });
  });

  app.get(
    DOWNLOAD_PATH,
    {
      config: { auth: 'public' },
      schema: {
        hide: true,
        querystring: Type.Object({
          key: Type.Optional(Type.String()),
          name: Type.Optional(Type.String()),
          expires: Type.Optional(Type.String()),
          signature: Type.Optional(Type.String()),
        }),
      },
    },
    async (request, reply) => {
      const { key, fileName } = await store.verifyDownload(request.query as DownloadQuery);
      const object = await store.open(key);
      if (!object) throw mediaNotFound();
      return sendFile(reply, object, {
        'content-disposition': attachmentDisposition(fileName),
        'cache-control': 'private, no-store',
      });
    },
  );
}
