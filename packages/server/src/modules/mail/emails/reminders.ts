/** The timed reminders (decision 0071): what they say, from facts recorded when they fell due. */
import type { EmailFormat, MailKey } from './format.js';
import type { Closing, EmailSeller, Paragraph } from './layout.js';
import { signed, type Email } from './notices.js';

interface ReminderFacts {
  productName: string;
  planName: string;
  /** The day announced (the trial's end, the renewal), written for the buyer. */
  date: string;
  /** What that day's payment will be, written for the buyer; null when it could not be worked out. */
  amount: string | null;
  /** The last four digits of the card that will be charged; null without one. */
  card: string | null;
}

/** The last paragraph: where to act, the portal's link where known, else the seller's email. */
const closing = (seller: EmailSeller, f: EmailFormat, portal: MailKey, byEmail: MailKey): Closing => ({
  portal: f.t(portal),
  withoutPortal: seller.supportEmail ? f.t(byEmail, { email: seller.supportEmail }) : null,
});

export function trialEndingEmail(seller: EmailSeller, f: EmailFormat, facts: ReminderFacts): Email {
  const named = { product: facts.productName, plan: facts.planName };
  const then: Paragraph[] = facts.amount
    ? [facts.card ? f.t('mail.trialEnding.charge', { amount: facts.amount, last4: facts.card }) : f.t('mail.trialEnding.noCard', { amount: facts.amount })]
    : [];
  const ends = f.t('mail.trialEnding.ends', { ...named, date: facts.date });
  const body = signed(seller, f, f.t('mail.trialEnding.heading'), [ends, ...then], closing(seller, f, 'mail.trialEnding.cancel', 'mail.trialEnding.cancelByEmail'));
  return { subject: f.t('mail.trialEnding.subject', { seller: seller.displayName }), ...body };
}

export function upcomingRenewalEmail(seller: EmailSeller, f: EmailFormat, facts: ReminderFacts): Email {
  const named = { product: facts.productName, plan: facts.planName, date: facts.date };
  const renews = facts.amount ? f.t('mail.upcomingRenewal.renews', { ...named, amount: facts.amount }) : f.t('mail.upcomingRenewal.renewsOn', named);
  const card = facts.card ? [f.t('mail.upcomingRenewal.card', { last4: facts.card })] : [];
  const body = signed(seller, f, f.t('mail.upcomingRenewal.heading'), [renews, ...card], closing(seller, f, 'mail.upcomingRenewal.cancel', 'mail.upcomingRenewal.cancelByEmail'));
  return { subject: f.t('mail.upcomingRenewal.subject', { seller: seller.displayName }), ...body };
}

export function cardExpiringEmail(seller: EmailSeller, f: EmailFormat, facts: ReminderFacts & { card: string; month: string; expired: boolean }): Email {
  const card = f.t(facts.expired ? 'mail.cardExpiring.expired' : 'mail.cardExpiring.expires', { last4: facts.card, month: facts.month });
  const next = f.t('mail.cardExpiring.nextPayment', { product: facts.productName, date: facts.date });
  const body = signed(seller, f, f.t('mail.cardExpiring.heading'), [card, next], closing(seller, f, 'mail.cardExpiring.update', 'mail.cardExpiring.updateByEmail'));
  return { subject: f.t('mail.cardExpiring.subject', { seller: seller.displayName }), ...body };
}
