import { emailBody, footerOf, type EmailBody, type EmailSeller } from './layout.js';
import { words } from './words.js';

export interface ReceiptFacts {
  seller: EmailSeller;
  invoiceNumber: string;
  /** The amount as buyers read it, e.g. `20.00 USD`. */
  amount: string;
  productName: string;
}

/** The receipt of a paid invoice (decision 0067): subject and body; the invoice's PDF goes with it. */
export function receiptEmail(facts: ReceiptFacts): EmailBody & { subject: string } {
  const w = words.receipt;
  const c = words.common;
  const body = emailBody(
    facts.seller,
    w.heading,
    [c.greeting, w.paid(facts.amount, facts.productName), w.invoice(facts.invoiceNumber), w.attached],
    footerOf(facts.seller, c.sentBy(facts.seller.displayName), c.questions),
  );
  return { subject: w.subject(facts.seller.displayName), ...body };
}
