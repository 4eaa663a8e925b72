import { emailBody, footerOf, type EmailBody, type EmailSeller, type Paragraph } from './layout.js';
import { words } from './words.js';

type Email = EmailBody & { subject: string };

const signed = (seller: EmailSeller, heading: string, paragraphs: Paragraph[]): EmailBody =>
  emailBody(seller, heading, [words.common.greeting, ...paragraphs], footerOf(seller, words.common.sentBy(seller.displayName), words.common.questions));

/** A settled refund (decision 0067); its credit note's PDF goes with it. */
export function refundEmail(seller: EmailSeller, facts: { amount: string; invoiceNumber: string; creditNoteNumber: string }): Email {
  const w = words.refund;
  const body = signed(seller, w.heading, [w.refunded(facts.amount, facts.invoiceNumber), w.timing, w.creditNote(facts.creditNoteNumber), w.attached]);
  return { subject: w.subject(seller.displayName), ...body };
}

/** A payment that failed, with the page where the invoice is paid when there is one. */
export function paymentFailedEmail(seller: EmailSeller, facts: { amount: string; productName: string; paymentLink: string | null }): Email {
  const w = words.paymentFailed;
  const body = signed(seller, w.heading, [w.failed(facts.amount, facts.productName), facts.paymentLink ? { words: w.payHere, href: facts.paymentLink } : w.noLink]);
  return { subject: w.subject(seller.displayName), ...body };
}

/** A subscription that ended. */
export function cancelledEmail(seller: EmailSeller, facts: { productName: string; planName: string }): Email {
  const w = words.cancelled;
  const body = signed(seller, w.heading, [w.ended(facts.productName, facts.planName), w.thanks]);
  return { subject: w.subject(seller.displayName), ...body };
}
