/**
 * What the page of a session that no longer takes a payment shows (issue 28, item 4): whom
 * the buyer paid, what for and how much, where the receipt went, and the invoice to
 * download; and that invoice's PDF, in the buyer's language, for a while after the purchase.
 */
import type { Db } from '../../db/connect.js';
import { DomainError } from '../../lib/domain-error.js';
import { findProduct } from '../catalog/queries.js';
import { InvoiceService } from '../invoices/service.js';
import { sellerOnPages, type SellerOnPages } from '../seller-profile/queries.js';
import type { SessionRow } from './repo.js';
import { invoiceNumber, planName } from './repo/due.js';
import { sessionCustomer } from './session-customer.js';

/** How long after a purchase its page still offers the invoice's PDF (later: the portal and the receipt email have it). */
export const INVOICE_LINK_DAYS = 30;

export interface ClosedFacts {
  seller: SellerOnPages;
  /** The buyer's own locale, which the page's language follows first. */
  customerLocale: string | null;
  productName: string;
  planName: string | null;
  invoiceNumber: string | null;
  /** The link to the purchase's invoice PDF, while the page offers it. */
  invoiceHref: string | null;
  /** The seller gave no successUrl: this page is where the buyer lands after paying. */
  ownPage: boolean;
}

const prefixOf = (session: SessionRow) => (session.environment === 'sandbox' ? '/sandbox' : '');

/** Whether the session's success URL is its own page (a buy link without success_url, a due payment). */
export function endsOnOwnPage(session: SessionRow): boolean {
  try {
    return new URL(session.success_url).pathname.endsWith(`/checkout/${session.id}/`);
  } catch {
    return false;
  }
}

/** Whether the page may still link the purchase's invoice: paid, invoiced, and recent. */
export function offersInvoice(session: SessionRow, now: Date): session is SessionRow & { invoice_id: string } {
  if (session.status !== 'success' || !session.invoice_id || !session.completed_at) return false;
  return now.getTime() - session.completed_at.getTime() <= INVOICE_LINK_DAYS * 86_400_000;
}

export async function closedFacts(db: Db, session: SessionRow, now: Date): Promise<ClosedFacts> {
  const [seller, customer, product, plan] = await Promise.all([
    sellerOnPages(db, session.organization_id, session.environment_id),
    sessionCustomer(db, session),
    findProduct(db, session.environment_id, session.product_id),
    planName(db, session.environment_id, session.plan_identifier),
  ]);
  const linked = offersInvoice(session, now);
  return {
    seller,
    customerLocale: customer?.locale ?? null,
    productName: product?.name ?? '',
    planName: plan ?? null,
    invoiceNumber: session.invoice_id ? await invoiceNumber(db, session.environment_id, session.invoice_id) : null,
    invoiceHref: linked ? `${prefixOf(session)}/checkout/${session.id}/invoice.pdf` : null,
    ownPage: endsOnOwnPage(session),
  };
}

/** The purchase's invoice as a PDF in `language`, while the page offers it; null otherwise. */
export async function sessionInvoicePdf(db: Db, session: SessionRow, now: Date, language: string): Promise<{ fileName: string; bytes: Buffer } | null> {
  if (!offersInvoice(session, now)) return null;
  const apiBase = session.api_base;
  const scope = { organizationId: session.organization_id, environmentId: session.environment_id, environment: session.environment, apiBase, baseUrl: apiBase.replace(/(\/sandbox)?\/api\/v1$/, '') };
  try {
    return await new InvoiceService(db).pdf(scope, session.invoice_id, { language });
  } catch (error) {
    if (error instanceof DomainError) return null;
    throw error;
  }
}
