/**
 * Payment links of unpaid invoices (decision 0035): `{root}[/sandbox]/pay/{token}/`, the
 * token random and stored with its invoice. The root is the server's public URL
 * (BILLOW_PUBLIC_URL), set once a process by app.ts: links are also written by
 * background work (renewals, dunning) that has no request to take a host from.
 */
import { randomBase62 } from './crypto.js';

let publicRoot = 'http://localhost:4000';

/** Called by app.ts with BILLOW_PUBLIC_URL, else the address this process listens on. */
export function setPayLinkRoot(root: string): void {
  publicRoot = root.replace(/\/+$/, '');
}

/** `pl_` and 40 random base62 characters (about 238 bits): the link's only credential. */
export const newPayToken = (): string => `pl_${randomBase62(40)}`;

/** Where links written without a request point: the process's root, with the environment's prefix. */
export const payLinkBase = (environment: 'sandbox' | 'production'): string => `${publicRoot}${environment === 'sandbox' ? '/sandbox' : ''}`;

/** The link of a token under `base`, a root with its environment's prefix (an API base without /api/v1). */
export const payLinkUrl = (base: string, token: string): string => `${base}/pay/${token}/`;

/** How long a payment link works after the last attempt to collect its invoice failed (decision 0070). */
export const PAY_LINK_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** When the link of an invoice whose attempt failed at `failedAt` stops working. */
export const payLinkExpiry = (failedAt: Date): Date => new Date(failedAt.getTime() + PAY_LINK_TTL_MS);
