import { randomUUID } from 'node:crypto';
import { randomBase62 } from '../lib/crypto.js';

function stamp(at: Date): string {
  return at.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** ORD-YYYYMMDDHHMMSS-XXXXX, as the reference shapes order ids. */
export const orderId = (at: Date) => `ORD-${stamp(at)}-${randomBase62(5).toUpperCase()}`;
/** INV-YYYYMMDDHHMMSS-XXXXX. */
export const invoiceId = (at: Date) => `INV-${stamp(at)}-${randomBase62(5).toUpperCase()}`;
/** Three characters and an upper-case UUID, e.g. LIC-A8D5F89E-…, as the reference shows license keys. */
export const licenseKey = () => `LIC-${randomUUID().toUpperCase()}`;
