import type { EmailFormat } from './format.js';
import type { EmailBody, EmailSeller } from './layout.js';
import { signed } from './notices.js';

export interface ReceiptFacts {
  invoiceNumber: string;
  /** The amount as buyers read it, e.g. `USD 20.00`. */
  amount: string;
  productName: string;
}

/** The receipt of a paid invoice (decision 0067): subject and body; the invoice's PDF goes with it. */
export function receiptEmail(seller: EmailSeller, f: EmailFormat, facts: ReceiptFacts): EmailBody & { subject: string } {
  const body = signed(seller, f, f.t('mail.receipt.heading'), [
    f.t('mail.receipt.paid', { amount: facts.amount, product: facts.productName }),
    f.t('mail.receipt.invoice', { number: facts.invoiceNumber }),
    f.t('mail.receipt.attached'),
  ]);
  return { subject: f.t('mail.receipt.subject', { seller: seller.displayName }), ...body };
}
