import { emailBody, footerOf, type Closing, type EmailBody, type EmailSeller, type Paragraph } from './layout.js';
import { words } from './words.js';

export type Email = EmailBody & { subject: string };

/** Greeted, signed by the seller, the closing paragraph given (else the portal's link where known). */
export const signed = (seller: EmailSeller, heading: string, paragraphs: Paragraph[], closing?: Closing): EmailBody =>
  emailBody(seller, heading, [words.common.greeting, ...paragraphs], footerOf(seller, words.common.sentBy(seller.displayName), words.common.questions), closing);

/** A settled refund (decision 0067); its credit note's PDF goes with it. */
export function refundEmail(seller: EmailSeller, facts: { amount: string; invoiceNumber: string; creditNoteNumber: string }): Email {
  const w = words.refund;
  const body = signed(seller, w.heading, [w.refunded(facts.amount, facts.invoiceNumber), w.timing, w.creditNote(facts.creditNoteNumber), w.attached]);
  return { subject: w.subject(seller.displayName), ...body };
}

/** What a failed attempt to collect an invoice tells the buyer (decision 0070), dates and amount written for them. */
export interface DunningFacts {
  amount: string;
  productName: string;
  /** The page where the invoice is paid, and until when its link works. */
  paymentLink: string | null;
  linkUntil: string | null;
  /** When the payment is tried again; null: it is not. */
  nextTry: string | null;
  /** The next try is the last: if it fails, the subscription is cancelled then. */
  finalTry: boolean;
}

/** What comes next, and where to pay: the paragraphs after the one that says the payment failed. */
function dunningParagraphs(facts: DunningFacts): Paragraph[] {
  const w = words.paymentFailed;
  const next: Paragraph[] = facts.nextTry
    ? [w.retryOn(facts.nextTry), ...(facts.finalTry ? [words.paymentRetryFailed.finalNotice(facts.nextTry)] : [])]
    : [w.noRetry];
  const link: Paragraph[] = facts.paymentLink
    ? [{ words: w.payHere, href: facts.paymentLink }, ...(facts.linkUntil ? [w.linkUntil(facts.linkUntil)] : [])]
    : [];
  return [...next, ...link];
}

const NEW_CARD: Closing = { portal: words.paymentFailed.newCard, withoutPortal: null };

/** A renewal's payment that failed, with the page where the invoice is paid and when it is tried again. */
export function paymentFailedEmail(seller: EmailSeller, facts: DunningFacts): Email {
  const w = words.paymentFailed;
  const body = signed(seller, w.heading, [w.failed(facts.amount, facts.productName), ...dunningParagraphs(facts)], NEW_CARD);
  return { subject: w.subject(seller.displayName), ...body };
}

/** A retry of that payment (dunning) that failed again: when the next one is, and before the last, the final notice. */
export function retryFailedEmail(seller: EmailSeller, facts: DunningFacts): Email {
  const w = words.paymentRetryFailed;
  const body = signed(seller, w.heading, [w.failedAgain(facts.amount, facts.productName), ...dunningParagraphs(facts)], NEW_CARD);
  return { subject: w.subject(seller.displayName), ...body };
}

interface SubscriptionFacts {
  productName: string;
  planName: string;
}

/** A subscription cancelled because its payment could not be collected: dunning ran out, or a trial ended with no way to pay. */
export function cancelledUnpaidEmail(seller: EmailSeller, facts: SubscriptionFacts & { afterTrial: boolean }): Email {
  const w = words.cancelledUnpaid;
  const what = facts.afterTrial ? w.trialEnded(facts.productName, facts.planName) : w.unpaid(facts.productName, facts.planName);
  return { subject: w.subject(seller.displayName), ...signed(seller, w.heading, [what, w.next]) };
}

/** A subscription cancelled with immediate effect. */
export function subscriptionCancelledEmail(seller: EmailSeller, facts: SubscriptionFacts & { date: string }): Email {
  const w = words.subscriptionCancelled;
  return { subject: w.subject(seller.displayName), ...signed(seller, w.heading, [w.cancelled(facts.productName, facts.planName, facts.date), w.next]) };
}

/** A subscription set to end later (at its period end, or on a date). */
export function cancellationScheduledEmail(seller: EmailSeller, facts: SubscriptionFacts & { date: string }): Email {
  const w = words.cancellationScheduled;
  const body = signed(seller, w.heading, [w.scheduled(facts.productName, facts.planName, facts.date), w.until], { portal: w.keep, withoutPortal: null });
  return { subject: w.subject(seller.displayName, facts.date), ...body };
}

/** A subscription that reached the end it was set to. */
export function cancelledEmail(seller: EmailSeller, facts: SubscriptionFacts): Email {
  const w = words.cancelled;
  const body = signed(seller, w.heading, [w.ended(facts.productName, facts.planName), w.thanks]);
  return { subject: w.subject(seller.displayName), ...body };
}
