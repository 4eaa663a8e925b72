import { randomUUID } from 'node:crypto';
import { randomBase62 } from '../../lib/crypto.js';

function stamp(at: Date): string {
  return at.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/**
 * Ten characters where the reference shows five (decision 0044): the ids are primary keys across
 * every organization, and five characters collided within one second of a 10,000-renewal run.
 */
const SUFFIX_LENGTH = 10;

/** ORD-YYYYMMDDHHMMSS-XXXXXXXXXX, the reference's order id shape with a longer random part. */
export const orderId = (at: Date) => `ORD-${stamp(at)}-${randomBase62(SUFFIX_LENGTH).toUpperCase()}`;
/** INV-YYYYMMDDHHMMSS-XXXXXXXXXX. */
export const invoiceId = (at: Date) => `INV-${stamp(at)}-${randomBase62(SUFFIX_LENGTH).toUpperCase()}`;
/** Three characters and an upper-case UUID, e.g. LIC-A8D5F89E-…, as the reference shows license keys. */
export const licenseKey = () => `LIC-${randomUUID().toUpperCase()}`;
