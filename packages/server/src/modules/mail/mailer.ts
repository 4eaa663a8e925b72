import nodemailer from 'nodemailer';
import type { MailConfig } from '../../config.js';

/** A file a message carries. */
export interface MailAttachment {
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

/** One message as a mailer sends it: plain text, and an HTML part built with every seller value escaped (decision 0067). */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  attachments?: MailAttachment[];
}

/** What sends email: SMTP in production; tests and other transports plug in here. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** Limits of one SMTP conversation, so that a silent server fails the attempt instead of holding it. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * SMTP through nodemailer, to BILLOW_SMTP_URL, from BILLOW_MAIL_FROM. A connection per
 * message (no pool): sign-in codes are few, and nothing stays open between them.
 */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS });
  return {
    async send(mail) {
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html ?? undefined,
        attachments: (mail.attachments ?? []).map((a) => ({ filename: a.fileName, contentType: a.contentType, content: Buffer.from(a.bytes) })),
      });
    },
    close: () => transport.close(),
  };
}

/** The mailer of a configuration: null when no SMTP server is configured. */
export function configuredMailer(config: MailConfig): Mailer | null {
  return config.smtpUrl && config.from ? smtpMailer(config.smtpUrl, config.from) : null;
}
