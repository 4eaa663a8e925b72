/**
 * Issuing credit notes (decision 0065), in the caller's transaction: the refund's settlement,
 * or the plan change that credits unused time. Each takes the next number of the seller's
 * credit note sequence, records the seller as the profile says now and the buyer as the
 * corrected invoice names them, and announces `credit_note.created` in the same transaction.
 */
import type { Selectable } from 'kysely';
import type { CustomersTable } from '../../db/schema.js';
import type { Tx } from '../../db/transaction.js';
import { newId } from '../../lib/crypto.js';
import { recordEvent } from '../events/writer.js';
import { sellerBlock, sellerYear } from '../seller-profile/queries.js';
import { taxTotals, type CreditLine } from './lines.compute.js';
import * as repo from './repo.js';
import { creditNoteObject } from './view.js';

type Customer = Selectable<CustomersTable>;

interface Draft {
  scope: { organizationId: string; environmentId: string };
  reason: repo.CreditNoteRow['reason'];
  customer: Customer;
  currency: string;
  line: CreditLine;
  at: Date;
  refundId: string | null;
  subscriptionId: string | null;
}

/** The buyer as the invoice names them; without an invoice, the customer as they are now. */
function buyerOf(invoice: repo.InvoiceRef | undefined, customer: Customer): Record<string, unknown> {
  if (invoice && Object.keys(invoice.buyer).length > 0) return invoice.buyer;
  return {
    customerId: customer.customer_id,
    name: customer.name,
    email: customer.email,
    billingAddress: customer.billing_address,
    taxId: (customer.details as Record<string, unknown> | null)?.taxId ?? null,
  };
}

/** The seller block and the next number: the invoice prefix, CN, the year where the seller is, the counter. */
async function sellerAndNumber(tx: Tx, draft: Draft): Promise<{ seller: string; number: string }> {
  const seller = await sellerBlock(tx, draft.scope.organizationId, draft.scope.environmentId);
  const year = sellerYear(draft.at, seller.timeZone);
  const counter = await repo.nextCreditNoteNumber(tx, draft.scope.environmentId, year);
  const { invoicePrefix, timeZone: _zone, ...printed } = seller;
  return { seller: JSON.stringify(printed), number: `${invoicePrefix}-CN-${year}-${String(counter).padStart(6, '0')}` };
}

async function issue(tx: Tx, draft: Draft, invoice: repo.InvoiceRef | undefined): Promise<string> {
  const { seller, number } = await sellerAndNumber(tx, draft);
  const id = newId();
  const { line } = draft;
  const row = {
    id,
    environment_id: draft.scope.environmentId,
    number,
    reason: draft.reason,
    invoice_id: invoice?.id ?? null,
    order_id: invoice?.order_id ?? null,
    customer_id: draft.customer.id,
    refund_id: draft.refundId,
    subscription_id: draft.subscriptionId,
    currency: draft.currency,
    subtotal_minor: line.amountMinor,
    tax_minor: line.taxMinor,
    total_minor: line.amountMinor + line.taxMinor,
    lines: JSON.stringify([line]),
    tax_totals: JSON.stringify(taxTotals([line])),
    seller,
    buyer: JSON.stringify(buyerOf(invoice, draft.customer)),
    issued_at: draft.at,
  };
  await repo.insertCreditNote(tx, row);
  // Read back as the API shows it, so that the event carries the same object.
  const detail = (await repo.findCreditNote(tx, draft.scope.environmentId, id))!;
  await recordEvent(tx, {
    environmentId: draft.scope.environmentId,
    organizationId: draft.scope.organizationId,
    type: 'credit_note.created',
    data: creditNoteObject(detail),
    at: draft.at,
  });
  return id;
}

export interface RefundCredit {
  scope: Draft['scope'];
  orderId: string;
  refundId: string;
  customer: Customer;
  currency: string;
  /** What the refund gives back, split: before tax, and the tax. */
  netMinor: number;
  taxMinor: number;
  taxRateBp: number;
  /** The whole of what was left to refund. */
  full: boolean;
  /** What was bought, e.g. the plan's name. */
  item: string;
  at: Date;
}

/** The credit note of a settled refund, against the order's invoice. */
export async function issueRefundCreditNote(tx: Tx, r: RefundCredit): Promise<string> {
  const invoice = await repo.invoiceOfOrder(tx, r.scope.environmentId, r.orderId);
  const line: CreditLine = {
    description: `${r.full ? 'Refund' : 'Partial refund'}: ${r.item}`,
    quantity: 1,
    amountMinor: r.netMinor,
    taxRateBp: r.taxRateBp,
    taxMinor: r.taxMinor,
  };
  const draft = { scope: r.scope, reason: 'REFUND' as const, customer: r.customer, currency: r.currency, line, at: r.at, refundId: r.refundId, subscriptionId: null };
  return issue(tx, draft, invoice);
}

export interface ProrationCredit {
  scope: Draft['scope'];
  /** The subscription the change supersedes: its newest paid invoice is the one corrected. */
  subscriptionId: string;
  customer: Customer;
  currency: string;
  description: string;
  netMinor: number;
  taxMinor: number;
  taxRateBp: number;
  at: Date;
}

/** The credit note of a plan change's credit for unused time, against the old subscription's last invoice. */
export async function issueProrationCreditNote(tx: Tx, p: ProrationCredit): Promise<string> {
  const invoice = await repo.lastInvoiceOfSubscription(tx, p.scope.environmentId, p.subscriptionId);
  const line: CreditLine = { description: p.description, quantity: 1, amountMinor: p.netMinor, taxRateBp: p.taxRateBp, taxMinor: p.taxMinor };
  const draft = { scope: p.scope, reason: 'PRORATION' as const, customer: p.customer, currency: p.currency, line, at: p.at, refundId: null, subscriptionId: p.subscriptionId };
  return issue(tx, draft, invoice);
}
