/**
 * Email to buyers from business events (decision 0067). Writing an event that buyers hear
 * about queues a `compose-mail` job in the same statement (modules/events); the job, after
 * the commit, reads the event, renders the document (the invoice's PDF) outside any
 * transaction, and writes one message per (event, kind) into the outbox: a job that runs
 * twice, or a replayed event, writes nothing more.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connect.js';
import { inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { InvoiceService } from '../invoices/service.js';
import { sellerBlock } from '../seller-profile/queries.js';
import type { EmailSeller } from './emails/layout.js';
import { receiptEmail } from './emails/receipt.js';
import type { EventMessage, MailOutbox } from './outbox.js';
import * as repo from './repo.js';

/** How long a receipt is worth sending: past it, a message that could not be sent is dropped. */
const RECEIPT_SEND_WITHIN_MS = 7 * 24 * 60 * 60 * 1000;
const ADDRESS_FIELDS = ['line1', 'line2', 'postalCode', 'postal_code', 'city', 'state', 'country'];

type EventRow = NonNullable<Awaited<ReturnType<typeof repo.findEvent>>>;
type Rendered = Pick<EventMessage, 'to' | 'subject' | 'text' | 'html' | 'attachments'>;

const objectOf = (event: EventRow): Record<string, unknown> => {
  const data = (event.payload as { data?: { object?: Record<string, unknown> } }).data;
  return data?.object ?? {};
};
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

export class MailComposer {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly outbox: MailOutbox,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** The email of one event; answers what was done, for the job's log. */
  async compose(eventId: string): Promise<string | undefined> {
    const event = await repo.findEvent(this.db, eventId);
    if (event?.type !== 'invoice.paid') return undefined;
    const environment = event.environment === 'sandbox' ? 'sandbox' : 'production';
    if (await repo.messageOfEvent(this.db, eventId, 'receipt')) return undefined;
    if (!this.outbox.canSend(environment)) return `no receipt for event ${eventId}: no SMTP server is configured`;
    const rendered = await this.receipt(event);
    if (!rendered) return undefined;
    const message: EventMessage = {
      ...rendered,
      organizationId: event.organization_id,
      environmentId: event.environment_id,
      environment,
      eventId,
      kind: 'receipt',
      sendBefore: new Date(this.clock.now().getTime() + RECEIPT_SEND_WITHIN_MS),
    };
    const queued = await inTransaction(this.db, (tx) => this.outbox.queueForEvent(tx, message));
    if (queued === 'duplicate') return undefined;
    if (queued) this.outbox.deliverSoon(queued);
    return `wrote the receipt of event ${eventId}`;
  }

  /** The receipt of an `invoice.paid` event; null when the buyer has no email. */
  private async receipt(event: EventRow): Promise<Rendered | null> {
    const invoice = objectOf(event);
    const customer = (invoice.customer ?? {}) as Record<string, unknown>;
    const to = text(customer.email);
    const invoiceId = text(invoice.id);
    if (!to || !invoiceId) return null;
    const scope = { organizationId: event.organization_id, environmentId: event.environment_id, environment: event.environment, baseUrl: '', apiBase: '' };
    const invoices = new InvoiceService(this.db);
    const [pdf, seller, view] = await Promise.all([invoices.pdf(scope, invoiceId), this.seller(event), invoices.get(scope, invoiceId)]);
    const product = (invoice.product ?? {}) as Record<string, unknown>;
    const body = receiptEmail({
      seller,
      invoiceNumber: view.number ?? invoiceId,
      amount: `${text(invoice.amount_total) ?? '0'} ${text(invoice.currency) ?? ''}`.trim(),
      productName: text(product.name) ?? '',
    });
    this.log?.debug({ eventId: event.id }, 'receipt rendered');
    return { to, ...body, attachments: [{ fileName: pdf.fileName, contentType: 'application/pdf', bytes: pdf.bytes }] };
  }

  private async seller(event: EventRow): Promise<EmailSeller> {
    const block = await sellerBlock(this.db, event.organization_id, event.environment_id);
    const address = block.address ?? {};
    const line = ADDRESS_FIELDS.map((field) => text(address[field])).filter((part): part is string => part !== null).join(', ');
    return { displayName: block.displayName, supportEmail: block.email, address: line || null };
  }
}
