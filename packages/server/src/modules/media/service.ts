import type { FastifyRequest } from 'fastify';
import { MIME_TYPE_PATTERN, type MediaFileReceived, type MediaUpload, type MediaUploadCreate } from '@billow/contract';
import type { Readable } from 'node:stream';
import type { Config } from '../../config.js';
import type { Db } from '../../db/connect.js';
import type { Tx } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import { DAY_MS } from '../../lib/time.js';
import {
  emptyFileName,
  uploadConsumed,
  uploadExpired,
  uploadFormUsed,
  uploadListedTwice,
  uploadMissing,
  uploadOverLimit,
  uploadTooLarge,
  uploadWrongKind,
  uploadUnknown,
  unreadableFileType,
} from './errors.js';
import { sanitizeFileName } from './file-names.js';
import { isPublicKey, isSafeKey, isValidPurpose, permanentKey, tmpKey, type Visibility } from './keys.js';
import { LocalDiskStore } from './local-store.js';
import { writeKeeping, type AnswerKeeper } from '../../db/answer-keeper.js';
import * as repo from './repo.js';
import { instanceSecret } from '../instance-secrets/secret.js';
import { MediaSigner } from './signing.js';
import type { ObjectInfo, ObjectStore } from './store.js';

/** What POST /media/ takes as a fileType, for the types of files sent to Billow itself. */
const MIME_TYPE = new RegExp(MIME_TYPE_PATTERN);

/** How long a presigned upload, and the fileKey it yields, stays usable. */
export const UPLOAD_TTL_MS = 60 * 60 * 1000;
export const DEFAULT_DOWNLOAD_TTL_SECONDS = 5 * 60;
/** Abandoned uploads are swept this long after they expire. */
const SWEEP_GRACE_MS = DAY_MS;
const SWEEP_BATCH = 500;

export interface MediaScope {
  organizationId: string;
  environmentId: string;
}

export interface StoredObject {
  /** Permanent key; store it, and pass it to publicUrl, downloadUrl and remove. */
  key: string;
  fileName: string;
  contentType: string;
  size: number;
  /** The tmp/ fileKey it came from, for consume. */
  uploadKey: string;
}

export interface StageOptions {
  /** `public`: served to anyone at publicUrl (product images). Default `private`: only through downloadUrl. */
  visibility?: Visibility;
  /** What the owner accepts (product images): the types, the size, and their name in a refusal's words. */
  accept?: UploadLimits;
}

export interface UploadLimits {
  /** MIME types, lower case, without parameters. */
  types: readonly string[];
  maxBytes: number;
  /** What the file is for and what it may be, for a refusal: `a product image must be PNG, JPEG…`. */
  rule: string;
}

export interface MediaOptions {
  maxUploadBytes: number;
  /** BILLOW_PUBLIC_URL: the root every URL is built on when set. */
  publicUrl: string | null;
}

/**
 * Presigned uploads, and the hand-over of uploaded files to the modules that
 * keep them (the catalog): stage copies a file out of tmp/, consume records the
 * hand-over in the caller's transaction, remove deletes for good.
 */
export class MediaService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly store: ObjectStore,
    private readonly options: MediaOptions,
  ) {}

  get maxUploadBytes(): number {
    return this.options.maxUploadBytes;
  }

  /**
   * Runs an upload through the form of `fileKey` once: a second use, even while the
   * first is still arriving, is refused (409); a failed upload frees the form again.
   */
  async throughFormOnce<T>(fileKey: string, upload: () => Promise<T>): Promise<T> {
    if (!(await repo.claimUploadForm(this.db, fileKey, this.clock.now()))) throw uploadFormUsed();
    try {
      return await upload();
    } catch (error) {
      await repo.releaseUploadForm(this.db, fileKey);
      throw error;
    }
  }

  /** The absolute root URLs are built on: BILLOW_PUBLIC_URL, else the request's own. */
  baseUrlOf(request: FastifyRequest): string {
    return this.options.publicUrl ?? `${request.protocol}://${request.host}`;
  }

  async createUpload(scope: MediaScope, input: MediaUploadCreate, baseUrl: string, keep?: AnswerKeeper): Promise<MediaUpload> {
    const upload = this.newUpload(scope, input.fileName, input.fileType);
    const { fileKey: key, contentType, maxSize: maxBytes, expiresAt } = upload;
    const presigned = await this.store.presignUpload({ baseUrl, key, contentType, maxBytes, expiresAt });
    return writeKeeping(this.db, keep, async (db) => {
      await repo.insertUpload(db, upload);
      return { url: presigned.url, fields: presigned.fields, fileKey: key };
    });
  }

  /**
   * An upload sent to Billow itself (the dashboard's, decision 0103): recorded as POST /media/
   * records one, its form used at once, then streamed into storage within the same limit. A
   * refused or broken upload leaves a record without a file, swept with the abandoned ones.
   */
  async receive(scope: MediaScope, file: { fileName: string; fileType: string }, body: Readable): Promise<MediaFileReceived> {
    if (file.fileType.length > 255 || !MIME_TYPE.test(file.fileType)) throw unreadableFileType(file.fileType);
    const upload = this.newUpload(scope, file.fileName, file.fileType);
    await repo.insertUpload(this.db, upload);
    const size = await this.throughFormOnce(upload.fileKey, () => this.store.write(upload.fileKey, upload.contentType, body, upload.maxSize));
    return { fileKey: upload.fileKey, fileName: upload.fileName, fileType: upload.contentType, size };
  }

  /** The record of a new upload to a fresh tmp/ key, valid for the hour. */
  private newUpload(scope: MediaScope, requestedName: string, contentType: string) {
    const fileName = sanitizeFileName(requestedName);
    if (!fileName) throw emptyFileName();
    const at = this.clock.now();
    const expiresAt = new Date(at.getTime() + UPLOAD_TTL_MS);
    const maxSize = this.options.maxUploadBytes;
    return { id: newId(), environmentId: scope.environmentId, fileKey: tmpKey(fileName), fileName, contentType, maxSize, at, expiresAt };
  }

  /**
   * Outside any transaction: checks that every key is an upload of this
   * environment that was uploaded, is within its hour and is not consumed, then
   * copies each to permanent storage under `purpose` (`products/<id>`) and
   * deletes its previous copy. A refused key → DomainError (invalid) naming it, before
   * anything is copied. Staging an upload again (the caller's transaction
   * failed) moves it on from where the last staging put it.
   */
  async stage(scope: MediaScope, tmpKeys: string[], purpose: string, options: StageOptions = {}): Promise<StoredObject[]> {
    if (!isValidPurpose(purpose)) throw new Error(`Invalid media purpose ${JSON.stringify(purpose)}`);
    const visibility = options.visibility ?? 'private';
    const rows = new Map((await repo.findUploads(this.db, scope.environmentId, [...new Set(tmpKeys)])).map((r) => [r.file_key, r]));
    const now = this.clock.now().getTime();
    const seen = new Set<string>();
    const checked: { row: repo.UploadRow; source: string; info: ObjectInfo }[] = [];
    for (const key of tmpKeys) {
      if (seen.has(key)) throw uploadListedTwice(key);
      seen.add(key);
      const usable = await this.usable(key, rows.get(key), now);
      if (options.accept) withinLimits(usable.row, usable.info, options.accept);
      checked.push(usable);
    }

    const staged: StoredObject[] = [];
    for (const { row, source, info } of checked) {
      const destination = permanentKey(visibility, scope.environmentId, purpose, row.file_name);
      // A concurrent staging of the same upload moved the source away, or won the race to record its copy.
      if (!(await this.store.copy(source, destination))) throw uploadConsumed(row.file_key);
      const recorded = await repo.recordStaging(this.db, {
        id: row.id,
        previousKey: row.stored_key,
        storedKey: destination,
        size: info.size,
        uploadedAt: info.uploadedAt,
      });
      if (!recorded) {
        await this.store.delete(destination);
        throw uploadConsumed(row.file_key);
      }
      await this.store.delete(source);
      staged.push({
        key: destination,
        fileName: row.file_name,
        contentType: row.content_type,
        size: info.size,
        uploadKey: row.file_key,
      });
    }
    return staged;
  }

  /** An upload that exists, is unused and current, and whose file arrived within its limit. */
  private async usable(key: string, row: repo.UploadRow | undefined, now: number) {
    if (!row) throw uploadUnknown(key);
    if (row.consumed_at) throw uploadConsumed(key);
    if (row.expires_at.getTime() <= now) throw uploadExpired(key);
    const source = row.stored_key ?? row.file_key;
    const info = await this.store.head(source);
    if (!info) throw uploadMissing(key);
    if (info.size > Number(row.max_size)) throw uploadTooLarge(key, Number(row.max_size));
    return { row, source, info };
  }

  /**
   * Outside any transaction: the bytes of an upload that its owner keeps itself rather than in
   * storage (the seller's logo), at most `maxBytes`. `consumeRead` records the use in the
   * caller's transaction, and `discard` deletes the upload's file after it committed.
   */
  async read(scope: MediaScope, fileKey: string, maxBytes: number): Promise<Buffer> {
    const [row] = await repo.findUploads(this.db, scope.environmentId, [fileKey]);
    // Staged for another owner (a product whose save failed): it is that owner's to retry.
    if (row && row.stored_key !== null) throw uploadConsumed(fileKey);
    const { source, info } = await this.usable(fileKey, row, this.clock.now().getTime());
    if (info.size > maxBytes) throw uploadTooLarge(fileKey, maxBytes);
    const bytes = await this.store.read(source);
    if (!bytes) throw uploadMissing(fileKey);
    return bytes;
  }

  async consumeRead(tx: Tx, scope: MediaScope, fileKey: string): Promise<void> {
    if (!(await repo.markConsumed(tx, scope.environmentId, fileKey, null, this.clock.now()))) throw uploadConsumed(fileKey);
  }

  async discard(fileKey: string): Promise<void> {
    if (isSafeKey(fileKey)) await this.store.delete(fileKey);
  }

  /** Inside the caller's transaction: marks the uploads consumed; one consumed (or staged again) meanwhile → 400 naming it. */
  async consume(tx: Tx, scope: MediaScope, objects: StoredObject[]): Promise<void> {
    const at = this.clock.now();
    for (const object of objects) {
      const done = await repo.markConsumed(tx, scope.environmentId, object.uploadKey, object.key, at);
      if (!done) throw uploadConsumed(object.uploadKey);
    }
  }

  /** After the caller's transaction committed: deletes permanent objects for good. Missing ones are not an error. */
  async remove(keys: string[]): Promise<void> {
    for (const key of keys) {
      if (!isSafeKey(key)) throw new Error(`Invalid media key ${JSON.stringify(key)}`);
    }
    await Promise.all(keys.map((key) => this.store.delete(key)));
  }

  /** A URL anyone may fetch, for objects staged with visibility `public`; unguessable by its random key. */
  publicUrl(baseUrl: string, key: string): string {
    if (!isPublicKey(key)) throw new Error(`The media key ${JSON.stringify(key)} is not public; use downloadUrl`);
    return this.store.publicUrl(baseUrl, key);
  }

  /** A short-lived URL that serves the object as a download named `fileName`. */
  async downloadUrl(
    baseUrl: string,
    key: string,
    fileName: string,
    ttlSeconds: number = DEFAULT_DOWNLOAD_TTL_SECONDS,
  ): Promise<string> {
    if (!isSafeKey(key)) throw new Error(`Invalid media key ${JSON.stringify(key)}`);
    const expiresAt = new Date(this.clock.now().getTime() + ttlSeconds * 1000);
    return this.store.downloadUrl({ baseUrl, key, fileName, expiresAt });
  }

  /**
   * Deletes uploads that were never attached, a day after they expired, with
   * their files (in tmp/, or where a staging left them). Returns how many.
   */
  async sweep(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - SWEEP_GRACE_MS);
    const rows = await repo.findAbandonedUploads(this.db, cutoff, SWEEP_BATCH);
    for (const row of rows) {
      await this.store.delete(row.file_key);
      if (row.stored_key) await this.store.delete(row.stored_key);
    }
    await repo.deleteUploads(this.db, rows.map((row) => row.id));
    return rows.length;
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

/** A refused type or size → 400 naming the fileKey, what it is, and what the owner takes. */
function withinLimits(row: repo.UploadRow, info: ObjectInfo, limits: UploadLimits): void {
  const type = row.content_type.split(';')[0]!.trim().toLowerCase();
  if (!limits.types.includes(type)) throw uploadWrongKind(row.file_key, type, limits.rule);
  if (info.size > limits.maxBytes) throw uploadOverLimit(row.file_key, info.size, limits.maxBytes, limits.rule);
}

/**
 * The store configuration asks for, around one MediaService per process. The S3 store
 * (and the AWS SDK, a tenth of a second to load) is loaded only when configured.
 */
export async function createMediaService(deps: { config: Config; db: Db; clock: Clock }): Promise<MediaService> {
  const { config, db, clock } = deps;
  const media = config.media;
  let store: ObjectStore;
  if (media.storage === 's3' && media.s3) {
    const { S3Store } = await import('./s3-store.js');
    store = S3Store.fromConfig(media.s3, clock);
  } else {
    const secret = instanceSecret(db, clock, config.secret, 'media_signing');
    let signer: MediaSigner | null = null;
    store = new LocalDiskStore(media.dir, async () => (signer ??= new MediaSigner(await secret())), clock);
  }
  return new MediaService(db, clock, store, { maxUploadBytes: media.maxUploadBytes, publicUrl: config.publicUrl });
}

export { requestBaseUrl } from './urls.js';
