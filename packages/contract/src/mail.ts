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
  createdOn: Timestamp,
});

/** GET /mail/inbox/ (sandbox, server key): the newest messages and the browser link to the inbox page. */
export const Inbox = Type.Object({
  inboxUrl: Type.String({ description: 'The inbox page for a browser: a secret link, valid while the instance secret is unchanged' }),
  messages: Type.Array(InboxMessage),
});
export type Inbox = Static<typeof Inbox>;

/** GET/PATCH /email-settings/ (Billow's addition): which emails buyers get in this environment; every kind is on by default. */
export const EmailSettings = Type.Object({
  receipts: Type.Boolean({ description: 'A receipt, with the invoice PDF, for every successful payment' }),
  refunds: Type.Boolean({ description: 'A refund notice, with the credit note PDF, for every settled refund' }),
  paymentFailed: Type.Boolean({ description: "A notice of a failed payment, with the invoice's pay link" }),
  subscriptionEnded: Type.Boolean({ description: 'A notice when a subscription ends' }),
});
export type EmailSettings = Static<typeof EmailSettings>;

export const EmailSettingsUpdate = Type.Partial(EmailSettings, { additionalProperties: false, minProperties: 1 });
export type EmailSettingsUpdate = Static<typeof EmailSettingsUpdate>;
