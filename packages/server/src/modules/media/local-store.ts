import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../../lib/clock.js';
import { byteLimit } from './byte-limit.js';
import { linkRefused, policyRefused } from './errors.js';
import { billowPublicUrl, isSafeKey, TMP_PREFIX } from './keys.js';
import { decodePolicy, downloadPayload, encodePolicy, type MediaSigner, type UploadPolicy } from './signing.js';
import type { DownloadGrant, ObjectInfo, ObjectStore, OpenObject, PresignedUpload, UploadGrant } from './store.js';

export const UPLOAD_PATH = '/media/upload';
export const DOWNLOAD_PATH = '/media/download';

/** The form fields of a local upload besides `file`; the same names S3 uses where it has them. */
export const UPLOAD_FIELDS = ['key', 'Content-Type', 'policy', 'signature'] as const;

export interface DownloadQuery {
  key?: string;
  name?: string;
  expires?: string;
  signature?: string;
}

interface Meta {
  contentType: string;
  size: number;
  uploadedAt: string;
}

/** Every way a path can fail to name an object: absent, through a file, or longer than the file system allows. */
const MISSING_CODES = new Set(['ENOENT', 'ENOTDIR', 'ENAMETOOLONG']);
const isMissing = (error: unknown) => MISSING_CODES.has((error as NodeJS.ErrnoException | null)?.code ?? '');

/**
 * Media on local disk, served by Billow itself. Under the root, `objects/<key>`
 * holds the bytes and `meta/<key>.json` the content type; an object exists once
 * its metadata is written. Writes land in `incoming/` first and are renamed into
 * place, so a reader never sees half a file.
 */
export class LocalDiskStore implements ObjectStore {
  private readonly objects: string;
  private readonly meta: string;
  private readonly incoming: string;

  constructor(
    root: string,
    private readonly signer: () => Promise<MediaSigner>,
    private readonly clock: Clock,
  ) {
    this.objects = path.join(root, 'objects');
    this.meta = path.join(root, 'meta');
    this.incoming = path.join(root, 'incoming');
  }

  async presignUpload(grant: UploadGrant): Promise<PresignedUpload> {
    const policy = encodePolicy({
      key: grant.key,
      contentType: grant.contentType,
      maxBytes: grant.maxBytes,
      expires: Math.floor(grant.expiresAt.getTime() / 1000),
    });
    const signature = (await this.signer()).sign('upload', policy);
    return {
      url: `${grant.baseUrl}${UPLOAD_PATH}`,
      fields: { key: grant.key, 'Content-Type': grant.contentType, policy, signature },
    };
  }

  /** The policy of an upload form whose fields are signed, current and consistent; 403 otherwise. */
  async verifyUpload(fields: Partial<Record<string, string>>): Promise<UploadPolicy> {
    const { policy: encoded, signature } = fields;
    if (!encoded || !signature) throw policyRefused('The upload form must carry the policy and signature fields it was given');
    if (!(await this.signer()).verify('upload', encoded, signature)) {
      throw policyRefused('The upload signature does not match its policy');
    }
    const policy = decodePolicy(encoded);
    if (!policy || !isSafeKey(policy.key) || !policy.key.startsWith(TMP_PREFIX)) {
      throw policyRefused('The upload policy is not valid');
    }
    if (policy.expires * 1000 <= this.clock.now().getTime()) {
      throw policyRefused('The upload policy has expired; request a new upload with POST /media/');
    }
    if (fields.key !== policy.key) throw policyRefused('The key field does not match the upload policy');
    if (fields['Content-Type'] !== policy.contentType) {
      throw policyRefused('The Content-Type field does not match the upload policy');
    }
    return policy;
  }

  async write(key: string, contentType: string, body: Readable, maxBytes: number): Promise<number> {
    const { counted, limit } = byteLimit(maxBytes);
    const partial = await this.incomingFile();
    const out = fs.createWriteStream(partial, { flags: 'wx' });
    try {
      await pipeline(body, limit, out);
      await this.commit(key, partial, { contentType, size: counted.size, uploadedAt: this.clock.now().toISOString() });
    } finally {
      // A refused upload may end while the file is still being opened: wait for it to close, or it outlives the rm.
      if (!out.closed) await once(out, 'close').catch(() => undefined);
      await fsp.rm(partial, { force: true });
    }
    return counted.size;
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const meta = JSON.parse(await fsp.readFile(this.metaPath(key), 'utf8')) as Meta;
      // A key is written once: its size and time identify its bytes.
      const etag = `"${meta.size.toString(16)}-${Date.parse(meta.uploadedAt).toString(16)}"`;
      return { contentType: meta.contentType, size: meta.size, uploadedAt: new Date(meta.uploadedAt), etag };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async open(key: string): Promise<OpenObject | null> {
    const info = await this.head(key);
    if (!info) return null;
    try {
      const handle = await fsp.open(this.objectPath(key), 'r');
      return { info, stream: handle.createReadStream() };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async read(key: string): Promise<Buffer | null> {
    try {
      return await fsp.readFile(this.objectPath(key));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async copy(from: string, to: string): Promise<boolean> {
    const info = await this.head(from);
    if (!info) return false;
    const partial = await this.incomingFile();
    try {
      await fsp.copyFile(this.objectPath(from), partial, fs.constants.COPYFILE_FICLONE);
      await this.commit(to, partial, { contentType: info.contentType, size: info.size, uploadedAt: info.uploadedAt.toISOString() });
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    } finally {
      await fsp.rm(partial, { force: true });
    }
  }

  async delete(key: string): Promise<void> {
    // Metadata first: from then on the object no longer exists for readers.
    for (const file of [this.metaPath(key), this.objectPath(key)]) {
      await fsp.rm(file, { force: true });
      // Each key has a directory of its own (its random segment); leave no empty ones behind.
      await fsp.rmdir(path.dirname(file)).catch(() => undefined);
    }
  }

  async downloadUrl(grant: DownloadGrant): Promise<string> {
    const expires = Math.floor(grant.expiresAt.getTime() / 1000);
    const signature = (await this.signer()).sign('download', downloadPayload(grant.key, grant.fileName, expires));
    const query = new URLSearchParams({ key: grant.key, name: grant.fileName, expires: String(expires), signature });
    return `${grant.baseUrl}${DOWNLOAD_PATH}?${query.toString()}`;
  }

  /** The key and file name of a signed, current download link; 403 otherwise. */
  async verifyDownload(query: DownloadQuery): Promise<{ key: string; fileName: string }> {
    const { key, name, expires, signature } = query;
    if (!key || name === undefined || !expires || !signature || !/^\d{1,12}$/.test(expires)) {
      throw linkRefused('The download link is incomplete');
    }
    if (!(await this.signer()).verify('download', downloadPayload(key, name, Number(expires)), signature)) {
      throw linkRefused('The download link is not valid');
    }
    if (Number(expires) * 1000 <= this.clock.now().getTime()) throw linkRefused('The download link has expired');
    if (!isSafeKey(key)) throw linkRefused('The download link is not valid');
    return { key, fileName: name };
  }

  publicUrl(baseUrl: string, key: string): string {
    return billowPublicUrl(baseUrl, key);
  }

  async close(): Promise<void> {}

  private async incomingFile(): Promise<string> {
    await fsp.mkdir(this.incoming, { recursive: true });
    return path.join(this.incoming, `${randomUUID()}.part`);
  }

  /** Moves finished bytes into place, then writes the metadata that makes the object exist. */
  private async commit(key: string, partial: string, meta: Meta): Promise<void> {
    const target = this.objectPath(key);
    const metaTarget = this.metaPath(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.mkdir(path.dirname(metaTarget), { recursive: true });
    await fsp.rename(partial, target);
    const metaPartial = `${partial}.json`;
    try {
      await fsp.writeFile(metaPartial, JSON.stringify(meta), { flag: 'wx' });
      await fsp.rename(metaPartial, metaTarget);
    } finally {
      await fsp.rm(metaPartial, { force: true });
    }
  }

  private objectPath(key: string): string {
    return path.join(this.objects, ...this.segments(key));
  }

  private metaPath(key: string): string {
    return `${path.join(this.meta, ...this.segments(key))}.json`;
  }

  private segments(key: string): string[] {
    if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
    return key.split('/');
  }
}
