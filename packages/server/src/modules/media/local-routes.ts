import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { DomainError } from '../../lib/domain-error.js';
import type { App } from '../../http/route-types.js';
import {
  fileFieldMissing,
  fileFieldNotLast,
  fileTooLarge,
  malformedForm,
  mediaNotFound,
  unknownFormField,
  uploadNotMultipart,
} from './errors.js';
import { attachmentDisposition } from './file-names.js';
import { DOWNLOAD_PATH, type DownloadQuery, type LocalDiskStore, UPLOAD_FIELDS, UPLOAD_PATH } from './local-store.js';
import { sendFile } from './serve.js';
import type { MediaService } from './service.js';

/** Room for the form fields and multipart framing around the file itself. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const uploadFields = new Set<string>(UPLOAD_FIELDS);

/**
 * Errors of a malformed form arrive as plain errors from the multipart parser:
 * they are the caller's (400). Errors of the file system keep their system code
 * and stay server errors.
 */
function uploadError(error: unknown, maxUploadBytes: number): unknown {
  if (error instanceof DomainError) return error;
  const e = error as { code?: string; statusCode?: number; syscall?: string; message?: string } | null;
  if (e?.code === 'FST_REQ_FILE_TOO_LARGE') return fileTooLarge(maxUploadBytes);
  if (e?.syscall) return error;
  if (e?.statusCode && e.statusCode >= 400 && e.statusCode < 500) return error;
  return malformedForm(e?.message ?? 'it could not be read');
}

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
    await media.throughFormOnce(policy.key, () => store.receive(policy, part.file));
    return;
  }
  throw fileFieldMissing();
}

/** Routes that stand in for S3 when files are on local disk: the upload form target and signed downloads. */
export function localStoreRoutes(app: App, store: LocalDiskStore, media: MediaService): void {
  const maxUploadBytes = media.maxUploadBytes;
  // Encapsulated, so that only this route accepts multipart bodies.
  void app.register(async (scope: FastifyInstance) => {
    await scope.register(multipart, {
      // One byte over the limit: the store's own check, which names the limit, is what refuses a large file.
      // Room for a few unknown fields, so that the answer names them rather than just counting them.
      limits: { fileSize: maxUploadBytes + 1, files: 1, fields: 16, fieldSize: 16 * 1024, parts: 17 },
      throwFileSizeLimit: true,
    });
    scope.post(UPLOAD_PATH, { config: { auth: 'public' }, schema: { hide: true } }, async (request, reply) => {
      // Browsers upload straight from the seller's pages; the answer holds nothing secret.
      reply.header('access-control-allow-origin', '*');
      const declared = Number(request.headers['content-length']);
      if (declared > maxUploadBytes + FORM_OVERHEAD_BYTES) throw fileTooLarge(maxUploadBytes);
      if (!request.isMultipart()) throw uploadNotMultipart();
      try {
        await receiveForm(request, store, media);
      } catch (error) {
        throw uploadError(error, maxUploadBytes);
      }
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
