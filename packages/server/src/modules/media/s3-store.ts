import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../../config.js';
import type { Clock } from '../../lib/clock.js';
import { attachmentDisposition } from './file-names.js';
import { billowPublicUrl, keyPath } from './keys.js';
import type { DownloadGrant, ObjectInfo, ObjectStore, PresignedUpload, UploadGrant } from './store.js';

const isNotFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.$metadata?.httpStatusCode === 404 || e?.name === 'NotFound' || e?.name === 'NoSuchKey';
};

/**
 * An S3-compatible bucket. Clients upload to it directly with a presigned POST;
 * downloads are presigned GETs. S3 checks its signatures against real time, so
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
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        size: out.ContentLength ?? 0,
        contentType: out.ContentType ?? 'application/octet-stream',
        uploadedAt: out.LastModified ?? this.clock.now(),
      };
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

  /** A short-lived URL that serves the object as it is, for Billow's public route when no public base URL is set. */
  async inlineUrl(key: string, ttlSeconds: number): Promise<string> {
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: ttlSeconds });
  }

  publicUrl(baseUrl: string, key: string): string {
    return this.publicBaseUrl ? `${this.publicBaseUrl}/${keyPath(key)}` : billowPublicUrl(baseUrl, key);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private secondsUntil(at: Date): number {
    return Math.max(1, Math.ceil((at.getTime() - this.clock.now().getTime()) / 1000));
  }
}
