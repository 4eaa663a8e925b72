import type { Selectable } from 'kysely';
import type { Executor } from '../../db/transaction.js';
import type { MediaUploadsTable } from '../../db/schema.js';

export type UploadRow = Selectable<MediaUploadsTable>;

export async function insertUpload(
  db: Executor,
  row: {
    id: string;
    environmentId: string;
    fileKey: string;
    fileName: string;
    contentType: string;
    maxSize: number;
    at: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('media_uploads')
    .values({
      id: row.id,
      environment_id: row.environmentId,
      file_key: row.fileKey,
      file_name: row.fileName,
      content_type: row.contentType,
      max_size: row.maxSize,
      created_at: row.at,
      expires_at: row.expiresAt,
    })
    .execute();
}

export async function findUploads(db: Executor, environmentId: string, fileKeys: string[]): Promise<UploadRow[]> {
  if (fileKeys.length === 0) return [];
  return db
    .selectFrom('media_uploads')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('file_key', 'in', fileKeys)
    .execute();
}

/**
 * Records that an upload now lives at `storedKey`, if nobody staged or consumed
 * it since it was read (its stored key is still `previousKey`): a compare-and-set,
 * so of two concurrent stagings exactly one wins.
 */
export async function recordStaging(
  db: Executor,
  change: { id: string; previousKey: string | null; storedKey: string; size: number; uploadedAt: Date },
): Promise<boolean> {
  let query = db
    .updateTable('media_uploads')
    .set({ stored_key: change.storedKey, size: change.size, uploaded_at: change.uploadedAt })
    .where('id', '=', change.id)
    .where('consumed_at', 'is', null);
  query =
    change.previousKey === null
      ? query.where('stored_key', 'is', null)
      : query.where('stored_key', '=', change.previousKey);
  const updated = await query.returning('id').executeTakeFirst();
  return updated !== undefined;
}

/**
 * Marks an upload used, where it is now: at `storedKey` after a staging, or where it was uploaded
 * (`null`: read by its owner, never staged). False when it was used, or moved, meanwhile.
 */
export async function markConsumed(tx: Executor, environmentId: string, fileKey: string, storedKey: string | null, at: Date): Promise<boolean> {
  const query = tx
    .updateTable('media_uploads')
    .set({ consumed_at: at })
    .where('environment_id', '=', environmentId)
    .where('file_key', '=', fileKey)
    .where('consumed_at', 'is', null);
  const where = storedKey === null ? query.where('stored_key', 'is', null) : query.where('stored_key', '=', storedKey);
  const updated = await where.returning('id').executeTakeFirst();
  return updated !== undefined;
}

/** Uploads never attached, expired before `cutoff`: across environments, for the sweeper. */
export async function findAbandonedUploads(db: Executor, cutoff: Date, limit: number): Promise<UploadRow[]> {
  return db
    .selectFrom('media_uploads')
    .selectAll()
    .where('consumed_at', 'is', null)
    .where('expires_at', '<', cutoff)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}

export async function deleteUploads(db: Executor, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('media_uploads').where('id', 'in', ids).where('consumed_at', 'is', null).execute();
}

/** Marks the upload form of `fileKey` used; false when it already was (or never existed). */
export async function claimUploadForm(db: Executor, fileKey: string, at: Date): Promise<boolean> {
  const claimed = await db
    .updateTable('media_uploads')
    .set({ form_used_at: at })
    .where('file_key', '=', fileKey)
    .where('form_used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** Lets the form of `fileKey` be used again, after an upload through it failed. */
export async function releaseUploadForm(db: Executor, fileKey: string): Promise<void> {
  await db.updateTable('media_uploads').set({ form_used_at: null }).where('file_key', '=', fileKey).execute();
}
