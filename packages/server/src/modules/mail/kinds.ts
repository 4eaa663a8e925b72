/**
 * What each event buyers hear about becomes (decisions 0067, 0070): its kind of email (the
 * kind's switch), and the email with its files, rendered by the compose-mail job outside
 * any transaction; null when nothing is to be sent (a credit note that is no refund, a
 * subscription replaced by a plan change rather than ended).
 */
import { CreditNoteService } from '../credit-notes/service.js';
import { InvoiceService } from '../invoices/service.js';
import { refundEmail } from './emails/notices.js';
import { receiptEmail } from './emails/receipt.js';
import { field, text } from './event-object.js';
import { amountOf, type Classified, type KindInput } from './kind-input.js';
import { cancellationScheduled, paymentFailed, subscriptionCancelled } from './kinds-subscriptions.js';

const pdf = (file: { fileName: string; bytes: Buffer }) => ({ fileName: file.fileName, contentType: 'application/pdf', bytes: file.bytes });

async function receipt(input: KindInput): Promise<Classified | null> {
  const { db, scope, object, seller } = input;
  const id = text(object.id);
  if (!id) return null;
  return {
    kind: 'receipt',
    render: async () => {
      const invoices = new InvoiceService(db);
      const [file, who, f, invoice, amount] = await Promise.all([invoices.pdf(scope, id), seller(), input.format(), invoices.get(scope, id), amountOf(input)]);
      const body = receiptEmail(who, f, { invoiceNumber: invoice.number ?? id, amount, productName: text(field(object, 'product').name) ?? '' });
      return { ...body, attachments: [pdf(file)] };
    },
  };
}

async function refund(input: KindInput): Promise<Classified | null> {
  const { db, scope, object, seller } = input;
  const id = text(object.id);
  if (!id || object.reason !== 'REFUND') return null;
  return {
    kind: 'refund',
    render: async () => {
      const [file, who, f, amount] = await Promise.all([new CreditNoteService(db).pdf(scope, id), seller(), input.format(), amountOf(input)]);
      const body = refundEmail(who, f, {
        amount,
        invoiceNumber: text(object.invoice_number) ?? text(object.invoice_id) ?? '',
        creditNoteNumber: text(object.number) ?? id,
      });
      return { ...body, attachments: [pdf(file)] };
    },
  };
}

type Classifier = (input: KindInput) => Promise<Classified | null>;

/** The classifiers by event type; modules/events queues compose-mail for exactly these types (MAILED_EVENT_TYPES). */
export const KINDS: Record<string, Classifier> = {
  'invoice.paid': receipt,
  'credit_note.created': refund,
  'invoice.payment_failed': paymentFailed,
  'subscription.cancelled': subscriptionCancelled,
  'subscription.updated': cancellationScheduled,
};
