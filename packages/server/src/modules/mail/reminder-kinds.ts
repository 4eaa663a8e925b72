/** A recorded reminder (decision 0071) as its email: from the facts kept with it, at the instant it fell due. */
import type { EmailFormat } from './emails/format.js';
import type { EmailSeller } from './emails/layout.js';
import { cardExpiringEmail, trialEndingEmail, upcomingRenewalEmail } from './emails/reminders.js';
import type { Rendered } from './kind-input.js';
import { cardExpiresAt } from './reminders.compute.js';
import type { ReminderFacts } from './reminders.js';

/**
 * The kinds a buyer may unsubscribe from (their messages carry List-Unsubscribe): the timed
 * reminders. Receipts, refunds, failed payments, final notices and cancellations are
 * transactional: they tell of the buyer's own money and contract, and carry none (decision 0075).
 */
export const UNSUBSCRIBABLE_KINDS: ReadonlySet<string> = new Set(['trial_ending', 'upcoming_renewal', 'card_expiring']);

export interface RecordedReminder {
  kind: string;
  occasion: Date;
  due_at: Date;
  facts: ReminderFacts;
}

export function reminderEmail(reminder: RecordedReminder, seller: EmailSeller, format: EmailFormat): Rendered | null {
  const { facts } = reminder;
  const card = facts.card;
  const common = {
    productName: facts.productName,
    planName: facts.planName,
    date: format.date(reminder.occasion),
    amount: facts.amountMinor !== null && facts.currency ? format.money(facts.amountMinor, facts.currency) : null,
    card: card?.last4 ?? null,
  };
  if (reminder.kind === 'trial_ending') return { ...trialEndingEmail(seller, format, common), attachments: [] };
  if (reminder.kind === 'upcoming_renewal') return { ...upcomingRenewalEmail(seller, format, common), attachments: [] };
  if (reminder.kind !== 'card_expiring' || !card?.last4 || !card.expMonth || !card.expYear) return null;
  const expired = cardExpiresAt({ expMonth: card.expMonth, expYear: card.expYear }).getTime() <= reminder.due_at.getTime();
  const month = format.month(card.expYear, card.expMonth);
  return { ...cardExpiringEmail(seller, format, { ...common, card: card.last4, month, expired }), attachments: [] };
}
