/**
 * What the checkout module takes from the use cases above it (use-cases/checkout-page.ts,
 * pay-due-invoice.ts), handed in by app.ts, and what it offers them: the hosted page's
 * answers, and the session a pending plan change is paid on.
 */
import type { SubscriptionUpdate } from '@billow/contract';
import type { Tx } from '../../db/transaction.js';
import type { Sent } from '../../page-kit/forms.js';
import type { CustomerRow, PurchaseScope } from '../purchases/purchase.js';
import type { DueClosedReason, DueState } from './due-page.js';
import type { PageState } from './page-state.js';
import type * as repo from './repo.js';

/** The page to show (rendered by the route in the buyer's language: due-page.ts), or where to go next. */
export type DueAnswer =
  | { kind: 'due'; status: number; state: DueState }
  | { kind: 'due-closed'; status: number; session: repo.SessionRow; reason: DueClosedReason }
  | { kind: 'redirect'; location: string };

/** Collects an unpaid renewal invoice now with the customer's default card (the billing engine's, handed in by app.ts). */
export type InvoicePayer = (
  scope: PurchaseScope,
  invoiceId: string,
) => Promise<{ outcome: 'paid' | 'failed' | 'ended'; code: string | null; message: string | null }>;

export type PageAnswer =
  | { kind: 'page'; status: number; state: PageState }
  | { kind: 'closed'; status: number; session: repo.SessionRow; reason: 'expired' | 'success' }
  | { kind: 'redirect'; location: string }
  | { kind: 'missing' }
  | DueAnswer;

/** The hosted page's side of completing a checkout: what its routes and its discount field ask. */
export interface CheckoutPages {
  view(id: string, environment: 'sandbox' | 'production', query: Sent, ipAddress: string | null): Promise<PageAnswer>;
  submit(id: string, environment: 'sandbox' | 'production', sent: Sent, ipAddress: string | null, acceptLanguage?: string): Promise<PageAnswer>;
  sessionAt(id: string, environment: 'sandbox' | 'production', tx?: Tx): Promise<repo.SessionRow | null>;
  csrfValid(sessionId: string, sent: string | undefined): Promise<boolean>;
  closedAnswer(session: repo.SessionRow): PageAnswer | null;
  state(session: repo.SessionRow, sent: Sent, ipAddress: string | null, problem: PageState['formProblem']): Promise<PageState>;
}

/** The change waiting for its payment, as the update call leaves it. */
export interface PendingChange {
  /** The incomplete record. */
  subscriptionId: string;
  customer: CustomerRow;
  input: SubscriptionUpdate;
  /** What the change costs now, in the subscription's currency. */
  amountMinor: number;
  currency: string;
  productId: string;
  expiresAt: Date;
  askedAt: Date;
}

/** Where the buyer pays a pending change: the checkout module opens a session for it in the update's transaction. */
export type PendingChangeCheckout = (
  tx: Tx,
  scope: PurchaseScope & { apiBase: string },
  change: PendingChange,
) => Promise<{ checkoutUrl: string; checkoutSessionId: string }>;
