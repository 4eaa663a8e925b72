import { Type, type Static } from 'typebox';

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
      // type/subtype with optional parameters, as in RFC 6838 and RFC 9110; nothing that could break a header.
      pattern:
        '^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\\s*;\\s*[A-Za-z0-9!#$&^_.+-]+=("[^"\\\\\\x00-\\x1f\\x7f]*"|[A-Za-z0-9!#$&^_.+-]+))*$',
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
