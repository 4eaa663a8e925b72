import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../../lib/domain-error.js';
import type { App } from '../../http/route-types.js';
import { fileTooLarge, malformedForm, uploadNotMultipart } from './errors.js';

/** Room for the form fields and multipart framing around the file itself. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/**
 * Errors of a malformed form arrive as plain errors from the multipart parser:
 * they are the caller's (400). Errors of the file system or of storage keep their
 * system code and stay server errors.
 */
function uploadError(error: unknown, maxUploadBytes: number): unknown {
  if (error instanceof DomainError) return error;
  const e = error as { code?: string; statusCode?: number; syscall?: string; message?: string; $metadata?: unknown } | null;
  if (e?.code === 'FST_REQ_FILE_TOO_LARGE') return fileTooLarge(maxUploadBytes);
  if (e?.syscall || e?.$metadata) return error;
  if (e?.statusCode && e.statusCode >= 400 && e.statusCode < 500) return error;
  return malformedForm(e?.message ?? 'it could not be read');
}

/**
 * Reads a multipart upload with `receive`, after refusing a body declared too large or not
 * multipart; a failure of the form is the caller's (4xx), one of storage stays the server's.
 */
export async function receiveMultipart<T>(request: FastifyRequest, maxUploadBytes: number, receive: () => Promise<T>): Promise<T> {
  const declared = Number(request.headers['content-length']);
  if (declared > maxUploadBytes + FORM_OVERHEAD_BYTES) throw fileTooLarge(maxUploadBytes);
  if (!request.isMultipart()) throw uploadNotMultipart();
  try {
    return await receive();
  } catch (error) {
    throw uploadError(error, maxUploadBytes);
  }
}

/** Registers `routes` in a scope of their own, the only one that accepts multipart bodies, one file each. */
export function multipartScope(app: App, maxUploadBytes: number, routes: (scope: FastifyInstance) => void): void {
  void app.register(async (scope: FastifyInstance) => {
    await scope.register(multipart, {
      // One byte over the limit: the store's own check, which names the limit, is what refuses a large file.
      // Room for a few unknown fields, so that the answer names them rather than just counting them.
      limits: { fileSize: maxUploadBytes + 1, files: 1, fields: 16, fieldSize: 16 * 1024, parts: 17 },
      throwFileSizeLimit: true,
    });
    routes(scope);
  });
}
