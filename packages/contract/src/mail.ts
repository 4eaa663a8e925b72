import { Type, type Static } from 'typebox';
import { Timestamp } from './common.js';

/** One message of the sandbox's development inbox (decision 0038). */
export const InboxMessage = Type.Object({
  id: Type.String({ format: 'uuid' }),
  to: Type.String(),
  subject: Type.String(),
  text: Type.String({ description: 'The plain-text body, as it would have been sent' }),
  html: Type.Union([Type.String(), Type.Null()], { description: 'The HTML body, for the email buyers receive (receipts); null for text-only messages' }),
  attachments: Type.Array(
    Type.Object({
      fileName: Type.String(),
      contentType: Type.String(),
      size: Type.Integer({ description: 'Bytes' }),
      url: Type.String({ description: 'Where the file is read, with the same server key' }),
    }),
  ),
  kind: Type.Union([Type.String(), Type.Null()], {
    description: "The kind of buyer email (`receipt`, `trial_ending`, …: the switches' kinds, decision 0067); null for other messages (sign-in codes)",
  }),
  headers: Type.Object(
    {
      fromName: Type.Union([Type.String(), Type.Null()], { description: "The name on the From line (the seller's); null: BILLOW_MAIL_FROM as it is" }),
      replyTo: Type.Union([Type.String(), Type.Null()], { description: "Where replies go (the seller's support email); null: none" }),
      listUnsubscribe: Type.Union([Type.String(), Type.Null()], { description: 'The List-Unsubscribe target, on reminders only; null: none' }),
    },
    { description: 'What the message would say of its sender when sent (decision 0075)' },
  ),
  createdOn: Timestamp,
  occurredOn: Type.Union([Timestamp, Type.Null()], {
    description: "When what the message tells happened, by the environment's clock: a test clock's simulated time for its customers (a reminder, a renewal's receipt); null for other messages",
  }),
});

/** GET /mail/inbox/ (sandbox, server key): the newest messages and the browser link to the inbox page. */
export const Inbox = Type.Object({
  inboxUrl: Type.String({ description: 'The inbox page for a browser: a secret link, valid while the instance secret is unchanged' }),
  messages: Type.Array(InboxMessage),
});
export type Inbox = Static<typeof Inbox>;

/** How many days before what it announces a timed reminder is sent: the least and the most an environment may choose. */
export const REMINDER_DAYS = {
  trialEndingDays: { minimum: 1, maximum: 30, default: 3 },
  upcomingRenewalDays: { minimum: 1, maximum: 90, default: 7 },
  cardExpiringDays: { minimum: 1, maximum: 90, default: 30 },
} as const;

const days = (range: { minimum: number; maximum: number; default: number }, description: string) =>
  Type.Integer({ minimum: range.minimum, maximum: range.maximum, description: `${description} (${range.minimum} to ${range.maximum}; default ${range.default})` });

/**
 * GET/PATCH /email-settings/ (Billow's addition): which emails buyers get in this environment,
 * each kind on by default, and how long before what they announce the timed reminders go out.
 */
export const EmailSettings = Type.Object({
  receipts: Type.Boolean({ description: 'A receipt, with the invoice PDF, for every successful payment' }),
  refunds: Type.Boolean({ description: 'A refund notice, with the credit note PDF, for every settled refund' }),
  paymentFailed: Type.Boolean({ description: "A notice of a renewal payment that failed, with the invoice's pay link and when it is tried again" }),
  paymentRetryFailed: Type.Boolean({
    description: 'A notice of each retry of a failed payment (dunning) that failed again: when the next one is, and before the last one, that the subscription will be cancelled if it fails',
  }),
  cancelledUnpaid: Type.Boolean({ description: 'A notice that a subscription was cancelled because its payment could not be collected (dunning ran out, or a trial ended without a payment method)' }),
  subscriptionCancelled: Type.Boolean({ description: 'A notice when a subscription is cancelled with immediate effect' }),
  cancellationScheduled: Type.Boolean({ description: 'A notice when a subscription is set to end later (at its period end or on a date)' }),
  subscriptionEnded: Type.Boolean({ description: 'A notice when a subscription reaches the end it was set to' }),
  trialEnding: Type.Boolean({ description: 'A reminder that a free trial ends soon, trialEndingDays before it does' }),
  upcomingRenewal: Type.Boolean({ description: 'A reminder of the renewal of a plan billed yearly or longer, upcomingRenewalDays before it, with the amount and how to cancel' }),
  cardExpiring: Type.Boolean({ description: 'A reminder that the card on file expires before the next renewal, cardExpiringDays before it expires' }),
  trialEndingDays: days(REMINDER_DAYS.trialEndingDays, 'Days before a trial ends that its reminder is sent'),
  upcomingRenewalDays: days(REMINDER_DAYS.upcomingRenewalDays, 'Days before a yearly renewal that its reminder is sent'),
  cardExpiringDays: days(REMINDER_DAYS.cardExpiringDays, 'Days before the card expires that its reminder is sent'),
});
export type EmailSettings = Static<typeof EmailSettings>;

export const EmailSettingsUpdate = Type.Partial(EmailSettings, { additionalProperties: false, minProperties: 1 });
export type EmailSettingsUpdate = Static<typeof EmailSettingsUpdate>;
