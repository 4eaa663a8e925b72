import type { Transporter } from 'nodemailer';
import type { MailConfig } from '../../config.js';

/** A file a message carries. */
export interface MailAttachment {
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

/** One message as a mailer sends it: plain text, and an HTML part built with every seller value escaped (decision 0067). */
export interface OutgoingMail {
  /** The message's id in the outbox: its Message-ID is made from it, so a retry sends the same one. */
  id: string;
  /** When the message was written (its Date header), by the environment's clock. */
  writtenAt: Date;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  attachments?: MailAttachment[];
  /** The name on the From line (the seller's); the address stays BILLOW_MAIL_FROM's. Null: BILLOW_MAIL_FROM as it is. */
  fromName?: string | null;
  replyTo?: string | null;
  /** A List-Unsubscribe target (`mailto:…`), only on kinds a buyer may unsubscribe from (decision 0075). */
  listUnsubscribe?: string | null;
}

/** What sends email: SMTP in production; tests and other transports plug in here. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** Limits of one SMTP conversation, so that a silent server fails the attempt instead of holding it. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** The address of a From setting (`Acme Billing <billing@acme.example>` or a bare address). */
export function addressOf(from: string): string {
  return /<([^<>\s]+@[^<>\s]+)>/.exec(from)?.[1] ?? from.trim();
}

/** A Message-ID of this message: its outbox id at the sending domain (RFC 5322 §3.6.4), the same on every attempt. */
export function messageIdOf(id: string, from: string): string {
  const domain = addressOf(from).split('@')[1] || 'billow.invalid';
  return `<${id}@${domain}>`;
}

/**
 * SMTP through nodemailer, to BILLOW_SMTP_URL, from BILLOW_MAIL_FROM (with the seller's name
 * when the message names one). A connection per message (no pool): nothing stays open between them.
 */
export function smtpMailer(url: string, from: string): Mailer {
  // nodemailer (some 15 MB and 100 ms to load) loads with the first message, not at start.
  let transport: Promise<Transporter> | null = null;
  const transportOf = () => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport({ url, ...SMTP_TIMEOUTS })));
  return {
    async send(mail) {
      await (await transportOf()).sendMail({
        from: mail.fromName ? { name: mail.fromName, address: addressOf(from) } : from,
        ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
        messageId: messageIdOf(mail.id, from),
        date: mail.writtenAt,
        ...(mail.listUnsubscribe ? { headers: { 'List-Unsubscribe': `<${mail.listUnsubscribe}>` } } : {}),
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html ?? undefined,
        attachments: (mail.attachments ?? []).map((a) => ({ filename: a.fileName, contentType: a.contentType, content: Buffer.from(a.bytes) })),
      });
    },
    // A transport that could not be made has nothing to close (its send already failed with the reason).
    close: () => void transport?.then((opened) => opened.close(), () => undefined),
  };
}

/** The mailer of a configuration: null when no SMTP server is configured. */
export function configuredMailer(config: MailConfig): Mailer | null {
  return config.smtpUrl && config.from ? smtpMailer(config.smtpUrl, config.from) : null;
}
