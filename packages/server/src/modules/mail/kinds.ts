/**
 * What each event buyers hear about becomes (decision 0067): its kind, and the email with
 * its files, rendered by the compose-mail job outside any transaction; null when nothing is
 * to be sent (no email address, a credit note that is no refund, a subscription replaced
 * by a plan change rather than ended).
 */
import type { Db } from '../../db/connect.js';
import { CreditNoteService } from '../credit-notes/service.js';
import { InvoiceService } from '../invoices/service.js';
import type { EmailSeller } from './emails/layout.js';
import { cancelledEmail, paymentFailedEmail, refundEmail } from './emails/notices.js';
import { receiptEmail } from './emails/receipt.js';
import type { EventMessage } from './outbox.js';

export type Rendered = Pick<EventMessage, 'subject' | 'text' | 'html' | 'attachments'>;

export interface KindInput {
  db: Db;
  scope: { organizationId: string; environmentId: string; environment: 'sandbox' | 'production'; baseUrl: string; apiBase: string };
  object: Record<string, unknown>;
  seller: () => Promise<EmailSeller>;
}

interface Kind {
  kind: string;
  render(input: KindInput): Promise<Rendered | null>;
}

export const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
const field = (object: Record<string, unknown>, key: string): Record<string, unknown> => (object[key] ?? {}) as Record<string, unknown>;
const amountOf = (object: Record<string, unknown>) => `${text(object.amount_total) ?? '0'} ${text(object.currency) ?? ''}`.trim();
const pdf = (file: { fileName: string; bytes: Buffer }) => ({ fileName: file.fileName, contentType: 'application/pdf', bytes: file.bytes });

/** The buyer's address in an event's object: its customer's email. */
export const recipientOf = (object: Record<string, unknown>): string | null => text(field(object, 'customer').email);

async function receipt({ db, scope, object, seller }: KindInput): Promise<Rendered | null> {
  const id = text(object.id);
  if (!id) return null;
  const invoices = new InvoiceService(db);
  const [file, who, invoice] = await Promise.all([invoices.pdf(scope, id), seller(), invoices.get(scope, id)]);
  const body = receiptEmail({ seller: who, invoiceNumber: invoice.number ?? id, amount: amountOf(object), productName: text(field(object, 'product').name) ?? '' });
  return { ...body, attachments: [pdf(file)] };
}

async function refund({ db, scope, object, seller }: KindInput): Promise<Rendered | null> {
  const id = text(object.id);
  if (!id || object.reason !== 'REFUND') return null;
  const [file, who] = await Promise.all([new CreditNoteService(db).pdf(scope, id), seller()]);
  const body = refundEmail(who, {
    amount: amountOf(object),
    invoiceNumber: text(object.invoice_number) ?? text(object.invoice_id) ?? '',
    creditNoteNumber: text(object.number) ?? id,
  });
  return { ...body, attachments: [pdf(file)] };
}

async function paymentFailed({ object, seller }: KindInput): Promise<Rendered | null> {
  const body = paymentFailedEmail(await seller(), {
    amount: amountOf(object),
    productName: text(field(object, 'product').name) ?? '',
    paymentLink: text(object.payment_link),
  });
  return { ...body, attachments: [] };
}

async function cancelled({ object, seller }: KindInput): Promise<Rendered | null> {
  if (object.status !== 'canceled') return null;
  const body = cancelledEmail(await seller(), { productName: text(field(object, 'product').name) ?? '', planName: text(field(object, 'plan').name) ?? '' });
  return { ...body, attachments: [] };
}

/** The kinds by event type; modules/events queues compose-mail for exactly these types (MAILED_EVENT_TYPES). */
export const KINDS: Record<string, Kind> = {
  'invoice.paid': { kind: 'receipt', render: receipt },
  'credit_note.created': { kind: 'refund', render: refund },
  'invoice.payment_failed': { kind: 'payment_failed', render: paymentFailed },
  'subscription.cancelled': { kind: 'subscription_cancelled', render: cancelled },
};
