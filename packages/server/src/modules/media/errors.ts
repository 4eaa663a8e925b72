import { DomainError, invalid, forbidden, notFound } from '../../lib/domain-error.js';

/** Unknown and other-environment keys get the same answer: a key's existence elsewhere is not disclosed. */
export const uploadUnknown = (key: string) =>
  invalid(`"${key}" is not a fileKey from POST /media/ in this environment`, 'invalid_file_key');
export const uploadConsumed = (key: string) =>
  invalid(`The fileKey "${key}" has already been used; request a new upload with POST /media/`, 'file_key_used');
export const uploadExpired = (key: string) =>
  invalid(
    `The fileKey "${key}" has expired: an upload must be attached within an hour; request a new one with POST /media/`,
    'file_key_expired',
  );
export const uploadMissing = (key: string) =>
  invalid(`Nothing has been uploaded to the fileKey "${key}" yet; upload the file first`, 'file_not_uploaded');
export const uploadListedTwice = (key: string) =>
  invalid(`The fileKey "${key}" is listed more than once`, 'validation_error');
export const uploadTooLarge = (key: string, maxBytes: number) =>
  invalid(`The file uploaded to "${key}" is larger than the limit of ${maxBytes} bytes`, 'file_too_large');
export const uploadWrongKind = (key: string, type: string, rule: string) =>
  invalid(`The file uploaded to "${key}" is of type ${type}: ${rule}`, 'unsupported_file_type');
export const uploadOverLimit = (key: string, size: number, maxBytes: number, rule: string) =>
  invalid(`The file uploaded to "${key}" is ${size} bytes, over the limit of ${maxBytes} bytes: ${rule}`, 'file_too_large');
export const uploadWrongType = (key: string) =>
  invalid(`The file uploaded to "${key}" does not have the declared Content-Type`, 'invalid_file_key');
export const unreadableFileType = (type: string) =>
  invalid(`file: ${JSON.stringify(type)} is not a MIME type; send the file with its type (image/png, application/pdf, …)`, 'validation_error');
export const emptyFileName = () =>
  invalid('fileName must contain at least one printable character besides "." and path separators', 'validation_error');

export const policyRefused = (detail: string) => forbidden(detail);
export const linkRefused = (detail: string) => forbidden(detail);
export const fileTooLarge = (maxBytes: number) =>
  new DomainError('too_large', 'payload_too_large', `The file is larger than this upload allows (${maxBytes} bytes)`);
export const mediaNotFound = () => notFound('No such file', 'file_not_found');
export const uploadFormUsed = () =>
  new DomainError(
    'conflict',
    'upload_form_used',
    'This upload form has already been used: a form uploads one file, once. Request a new upload with POST /media/.',
  );
export const uploadNotMultipart = () =>
  new DomainError('unsupported_media', 'unsupported_media_type', 'Send the upload as multipart/form-data, with the file last in a field named "file"');
export const malformedForm = (reason: string) =>
  invalid(`The upload is not a valid multipart/form-data body: ${reason}`);
export const unknownFormField = (fieldName: string) => invalid(`The form field "${fieldName}" is not part of the upload`);
export const fileFieldNotLast = () => invalid('The file must be sent last, in a field named "file"');
export const fileFieldMissing = () => invalid('The form has no "file" field');
