import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../../config.js';
import type { Clock } from '../../lib/clock.js';
import { attachmentDisposition } from './file-names.js';
import { billowPublicUrl, keyPath } from './keys.js';
import { Readable } from 'node:stream';
import { byteLimit } from './byte-limit.js';
import type { DownloadGrant, ObjectInfo, ObjectStore, OpenObject, PresignedUpload, UploadGrant } from './store.js';

const isNotFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.$metadata?.httpStatusCode === 404 || e?.name === 'NotFound' || e?.name === 'NoSuchKey';
};

/**
 * An S3-compatible bucket. API clients upload to it directly with a presigned POST, the
 * dashboard through Billow (write); downloads are presigned GETs, public images are read
 * through Billow (open). S3 checks its signatures against real time, so
 * durations are measured from Billow's clock but signed with the system's.
 */
export class S3Store implements ObjectStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly publicBaseUrl: string | null,
    private readonly clock: Clock,
  ) {}

  /** Credentials come from the AWS provider chain: environment, shared files, SSO, instance or task roles. */
  static fromConfig(config: S3Config, clock: Clock): S3Store {
    const client = new S3Client({
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    });
    return new S3Store(client, config.bucket, config.publicUrl, clock);
  }

  async presignUpload(grant: UploadGrant): Promise<PresignedUpload> {
    // createPresignedPost turns every field (bucket, key, Content-Type) into an exact-match condition.
    return createPresignedPost(this.client, {
      Bucket: this.bucket,
      Key: grant.key,
      Fields: { 'Content-Type': grant.contentType },
      Conditions: [['content-length-range', 0, grant.maxBytes]],
      Expires: this.secondsUntil(grant.expiresAt),
    });
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      return this.infoOf(await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })));
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async read(key: string): Promise<Buffer | null> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return out.Body ? Buffer.from(await out.Body.transformToByteArray()) : null;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async open(key: string): Promise<OpenObject | null> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return out.Body ? { info: this.infoOf(out), stream: out.Body as Readable } : null;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  /**
   * A body of unknown length: the SDK's managed upload keeps parts in memory (5 MiB each, four
   * at a time) and sends a small body as one PUT; a refused body aborts what was sent.
   */
  async write(key: string, contentType: string, body: Readable, maxBytes: number): Promise<number> {
    const { counted, limit } = byteLimit(maxBytes);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, ContentType: contentType, Body: Readable.from(limit(body)) },
    });
    await upload.done();
    return counted.size;
  }

  async copy(from: string, to: string): Promise<boolean> {
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: to,
          CopySource: `${this.bucket}/${keyPath(from)}`,
          MetadataDirective: 'COPY',
        }),
      );
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async downloadUrl(grant: DownloadGrant): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: grant.key,
      ResponseContentDisposition: attachmentDisposition(grant.fileName),
    });
    return getSignedUrl(this.client, command, { expiresIn: this.secondsUntil(grant.expiresAt) });
  }

  publicUrl(baseUrl: string, key: string): string {
    return this.publicBaseUrl ? `${this.publicBaseUrl}/${keyPath(key)}` : billowPublicUrl(baseUrl, key);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private infoOf(out: { ContentLength?: number; ContentType?: string; LastModified?: Date; ETag?: string }): ObjectInfo {
    return {
      size: out.ContentLength ?? 0,
      contentType: out.ContentType ?? 'application/octet-stream',
      uploadedAt: out.LastModified ?? this.clock.now(),
      ...(out.ETag ? { etag: out.ETag } : {}),
    };
  }

  private secondsUntil(at: Date): number {
    return Math.max(1, Math.ceil((at.getTime() - this.clock.now().getTime()) / 1000));
  }
}
