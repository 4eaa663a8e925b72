import { Type, type Static } from 'typebox';

/** type/subtype with optional parameters, as in RFC 6838 and RFC 9110; nothing that could break a header. */
export const MIME_TYPE_PATTERN =
  '^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\\s*;\\s*[A-Za-z0-9!#$&^_.+-]+=("[^"\\\\\\x00-\\x1f\\x7f]*"|[A-Za-z0-9!#$&^_.+-]+))*$';

export const MediaUploadCreate = Type.Object(
  {
    fileName: Type.String({
      minLength: 1,
      maxLength: 1024,
      description:
        'Name of the file; the end of the generated fileKey. Directories and control characters are dropped, and long names shortened.',
      examples: ['web-app-manifest-512x512.png'],
    }),
    fileType: Type.String({
      minLength: 3,
      maxLength: 255,
      pattern: MIME_TYPE_PATTERN,
      description: 'MIME type of the file; the upload must declare the same Content-Type',
      examples: ['image/png'],
    }),
  },
  { additionalProperties: false, title: 'MediaUploadCreate' },
);
export type MediaUploadCreate = Static<typeof MediaUploadCreate>;

export const MediaUpload = Type.Object(
  {
    url: Type.String({ format: 'uri', description: 'Where to POST the multipart/form-data upload' }),
    fields: Type.Record(Type.String(), Type.String(), {
      description: 'Form fields to send exactly as given, before a final `file` field holding the bytes',
    }),
    fileKey: Type.String({
      description: 'tmp/<uuid>/<fileName>: pass it in `imageKeys` or `fileKeys` within the hour',
      examples: ['tmp/108713b0-1f81-42cf-a16c-c83b1d4d4148/web-app-manifest-512x512.png'],
    }),
  },
  { title: 'MediaUpload' },
);
export type MediaUpload = Static<typeof MediaUpload>;

export const MediaFileForm = Type.Object(
  {
    file: Type.Unsafe<Blob>({
      type: 'string',
      format: 'binary',
      description:
        "The file, as the form's only field; its file name and type become the upload's `fileName` and `fileType`, as in POST /media/",
    }),
  },
  { title: 'MediaFileForm' },
);

export const MediaFileReceived = Type.Object(
  {
    fileKey: Type.String({
      description: 'tmp/<uuid>/<fileName>: pass it in `imageKeys`, `fileKeys` or `logoImageKey` within the hour',
      examples: ['tmp/108713b0-1f81-42cf-a16c-c83b1d4d4148/box-shot.png'],
    }),
    fileName: Type.String({ description: 'The file name as kept: directories and control characters dropped, long names shortened' }),
    fileType: Type.String({ description: 'The MIME type the file was sent with', examples: ['image/png'] }),
    size: Type.Integer({ minimum: 0, description: 'Bytes received' }),
  },
  { title: 'MediaFileReceived' },
);
export type MediaFileReceived = Static<typeof MediaFileReceived>;
