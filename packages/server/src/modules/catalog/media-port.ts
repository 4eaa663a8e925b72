import type { Tx } from '../../db/transaction.js';
import type { MediaScope, StageOptions, StoredObject } from '../media/service.js';

export type { MediaScope, StoredObject };

/** What the catalog needs from media storage: attach uploads, forget files, and link to them. */
export interface CatalogMedia {
  stage(
    scope: MediaScope,
    tmpKeys: string[],
    purpose: string,
    options?: StageOptions,
  ): Promise<StoredObject[]>;
  consume(tx: Tx, scope: MediaScope, objects: StoredObject[]): Promise<void>;
  remove(keys: string[]): Promise<void>;
  publicUrl(baseUrl: string, key: string): string;
  downloadUrl(baseUrl: string, key: string, fileName: string, ttlSeconds?: number): Promise<string>;
}
