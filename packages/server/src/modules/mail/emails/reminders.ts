/** The timed reminders (decision 0071): what they say, from facts recorded when they fell due. */
import type { Closing, EmailSeller, Paragraph } from './layout.js';
import { signed, type Email } from './notices.js';
import { words } from './words.js';

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
const closing = (seller: EmailSeller, portal: string, byEmail: (email: string) => string): Closing => ({
  portal,
  withoutPortal: seller.supportEmail ? byEmail(seller.supportEmail) : null,
});

export function trialEndingEmail(seller: EmailSeller, facts: ReminderFacts): Email {
  const w = words.trialEnding;
  const then: Paragraph[] = facts.amount ? [facts.card ? w.charge(facts.amount, facts.card) : w.noCard(facts.amount)] : [];
  const body = signed(seller, w.heading, [w.ends(facts.productName, facts.planName, facts.date), ...then], closing(seller, w.cancel, w.cancelByEmail));
  return { subject: w.subject(seller.displayName), ...body };
}

export function upcomingRenewalEmail(seller: EmailSeller, facts: ReminderFacts): Email {
  const w = words.upcomingRenewal;
  const renews = facts.amount
    ? w.renews(facts.productName, facts.planName, facts.date, facts.amount)
    : w.renewsOn(facts.productName, facts.planName, facts.date);
  const body = signed(seller, w.heading, [renews, ...(facts.card ? [w.card(facts.card)] : [])], closing(seller, w.cancel, w.cancelByEmail));
  return { subject: w.subject(seller.displayName), ...body };
}

export function cardExpiringEmail(seller: EmailSeller, facts: ReminderFacts & { card: string; month: string; expired: boolean }): Email {
  const w = words.cardExpiring;
  const card = facts.expired ? w.expired(facts.card, facts.month) : w.expires(facts.card, facts.month);
  const body = signed(seller, w.heading, [card, w.nextPayment(facts.productName, facts.date)], closing(seller, w.update, w.updateByEmail));
  return { subject: w.subject(seller.displayName), ...body };
}
