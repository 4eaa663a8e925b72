/** Real image files for tests of logos: a PNG of any size and colour, drawn here byte by byte. */
import zlib from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A width × height PNG: a band of `rgb` on the left half, white on the right (so its placement shows). */
export function pngOf(width: number, height: number, rgb: [number, number, number] = [29, 78, 216]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, truecolour, no interlace
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(x < width / 2 ? rgb : [255, 255, 255], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any; text: string }>;

/** What a seller's browser does with an image: ask for an upload form, then post the file with its fields. */
export async function uploadedImage(call: Call, bytes: Uint8Array, fileName = 'logo.png', fileType = 'image/png'): Promise<string> {
  const presigned = await call('POST', '/media/', { fileName, fileType });
  if (presigned.status !== 200) throw new Error(`upload form: ${presigned.status} ${presigned.text}`);
  const form = new FormData();
  for (const [name, value] of Object.entries(presigned.body.fields as Record<string, string>)) form.append(name, value);
  form.append('file', new Blob([bytes], { type: fileType }), fileName);
  const sent = await fetch(presigned.body.url, { method: 'POST', body: form });
  if (sent.status !== 204) throw new Error(`upload: ${sent.status} ${await sent.text()}`);
  return presigned.body.fileKey as string;
}
