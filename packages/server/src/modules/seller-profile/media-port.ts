import type { Tx } from '../../db/transaction.js';
import type { MediaScope } from '../media/service.js';

/** What the seller profile needs from media: an uploaded logo's bytes, once. */
export interface SellerLogoMedia {
  read(scope: MediaScope, fileKey: string, maxBytes: number): Promise<Buffer>;
  consumeRead(tx: Tx, scope: MediaScope, fileKey: string): Promise<void>;
  discard(fileKey: string): Promise<void>;
}
