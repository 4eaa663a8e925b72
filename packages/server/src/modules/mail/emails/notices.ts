import type { EmailFormat } from './format.js';
import { emailBody, footerOf, type Closing, type EmailBody, type EmailSeller, type Paragraph } from './layout.js';

export type Email = EmailBody & { subject: string };

/** Greeted, signed by the seller, the closing paragraph given (else the portal's link where known). */
export const signed = (seller: EmailSeller, f: EmailFormat, heading: string, paragraphs: Paragraph[], closing?: Closing): EmailBody =>
  emailBody(seller, f, heading, [f.t('mail.greeting'), ...paragraphs], footerOf(seller, f), closing);

const subjectOf = (seller: EmailSeller, f: EmailFormat, key: Parameters<EmailFormat['t']>[0]) => f.t(key, { seller: seller.displayName });

/** A settled refund (decision 0067); its credit note's PDF goes with it. */
export function refundEmail(seller: EmailSeller, f: EmailFormat, facts: { amount: string; invoiceNumber: string; creditNoteNumber: string }): Email {
  const body = signed(seller, f, f.t('mail.refund.heading'), [
    f.t('mail.refund.refunded', { amount: facts.amount, number: facts.invoiceNumber }),
    f.t('mail.refund.timing'),
    f.t('mail.refund.creditNote', { number: facts.creditNoteNumber }),
    f.t('mail.refund.attached'),
  ]);
  return { subject: subjectOf(seller, f, 'mail.refund.subject'), ...body };
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
function dunningParagraphs(f: EmailFormat, facts: DunningFacts): Paragraph[] {
  const next: Paragraph[] = facts.nextTry
    ? [
        f.t('mail.paymentFailed.retryOn', { date: facts.nextTry }),
        ...(facts.finalTry ? [f.t('mail.paymentRetryFailed.finalNotice', { date: facts.nextTry })] : []),
      ]
    : [f.t('mail.paymentFailed.noRetry')];
  const link: Paragraph[] = facts.paymentLink
    ? [{ words: f.t('mail.paymentFailed.payHere'), href: facts.paymentLink }, ...(facts.linkUntil ? [f.t('mail.paymentFailed.linkUntil', { date: facts.linkUntil })] : [])]
    : [];
  return [...next, ...link];
}

const newCard = (f: EmailFormat): Closing => ({ portal: f.t('mail.paymentFailed.newCard'), withoutPortal: null });

/** A renewal's payment that failed, with the page where the invoice is paid and when it is tried again. */
export function paymentFailedEmail(seller: EmailSeller, f: EmailFormat, facts: DunningFacts): Email {
  const failed = f.t('mail.paymentFailed.failed', { amount: facts.amount, product: facts.productName });
  const body = signed(seller, f, f.t('mail.paymentFailed.heading'), [failed, ...dunningParagraphs(f, facts)], newCard(f));
  return { subject: subjectOf(seller, f, 'mail.paymentFailed.subject'), ...body };
}

/** A retry of that payment (dunning) that failed again: when the next one is, and before the last, the final notice. */
export function retryFailedEmail(seller: EmailSeller, f: EmailFormat, facts: DunningFacts): Email {
  const failed = f.t('mail.paymentRetryFailed.failedAgain', { amount: facts.amount, product: facts.productName });
  const body = signed(seller, f, f.t('mail.paymentRetryFailed.heading'), [failed, ...dunningParagraphs(f, facts)], newCard(f));
  return { subject: subjectOf(seller, f, 'mail.paymentRetryFailed.subject'), ...body };
}

interface SubscriptionFacts {
  productName: string;
  planName: string;
}

const named = (facts: SubscriptionFacts) => ({ product: facts.productName, plan: facts.planName });

/** A subscription cancelled because its payment could not be collected: dunning ran out, or a trial ended with no way to pay. */
export function cancelledUnpaidEmail(seller: EmailSeller, f: EmailFormat, facts: SubscriptionFacts & { afterTrial: boolean }): Email {
  const what = f.t(facts.afterTrial ? 'mail.cancelledUnpaid.trialEnded' : 'mail.cancelledUnpaid.unpaid', named(facts));
  const body = signed(seller, f, f.t('mail.cancelledUnpaid.heading'), [what, f.t('mail.cancelledUnpaid.next')]);
  return { subject: subjectOf(seller, f, 'mail.cancelledUnpaid.subject'), ...body };
}

/** A subscription cancelled with immediate effect. */
export function subscriptionCancelledEmail(seller: EmailSeller, f: EmailFormat, facts: SubscriptionFacts & { date: string }): Email {
  const what = f.t('mail.subscriptionCancelled.cancelled', { ...named(facts), date: facts.date });
  const body = signed(seller, f, f.t('mail.subscriptionCancelled.heading'), [what, f.t('mail.subscriptionCancelled.next')]);
  return { subject: subjectOf(seller, f, 'mail.subscriptionCancelled.subject'), ...body };
}

/** A subscription set to end later (at its period end, or on a date). */
export function cancellationScheduledEmail(seller: EmailSeller, f: EmailFormat, facts: SubscriptionFacts & { date: string }): Email {
  const what = f.t('mail.cancellationScheduled.scheduled', { ...named(facts), date: facts.date });
  const keep: Closing = { portal: f.t('mail.cancellationScheduled.keep'), withoutPortal: null };
  const body = signed(seller, f, f.t('mail.cancellationScheduled.heading'), [what, f.t('mail.cancellationScheduled.until')], keep);
  return { subject: f.t('mail.cancellationScheduled.subject', { seller: seller.displayName, date: facts.date }), ...body };
}

/** A subscription that reached the end it was set to. */
export function cancelledEmail(seller: EmailSeller, f: EmailFormat, facts: SubscriptionFacts): Email {
  const body = signed(seller, f, f.t('mail.cancelled.heading'), [f.t('mail.cancelled.ended', named(facts)), f.t('mail.cancelled.thanks')]);
  return { subject: subjectOf(seller, f, 'mail.cancelled.subject'), ...body };
}
