/**
 * Email to buyers from business events (decision 0067). Writing an event that buyers hear
 * about queues a `compose-mail` job in the same statement (modules/events); the job, after
 * the commit, reads the event, renders the email and its document (a PDF) outside any
 * transaction, and writes one message per (event, kind) into the outbox: a job that runs
 * twice, or a replayed event, writes nothing more.
 */
import type { Db } from '../../db/connect.js';
import { inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { sellerBlock, sellerOnPages } from '../seller-profile/queries.js';
import type { EmailSeller } from './emails/layout.js';
import { KINDS, recipientOf, text } from './kinds.js';
import type { EventMessage, MailOutbox } from './outbox.js';
import * as repo from './repo.js';
import { kindEnabled } from './settings.service.js';

/** How long such an email is worth sending: past it, a message that could not be sent is dropped. */
const SEND_WITHIN_MS = 7 * 24 * 60 * 60 * 1000;
const ADDRESS_FIELDS = ['line1', 'line2', 'postalCode', 'postal_code', 'city', 'state', 'country'];

type EventRow = NonNullable<Awaited<ReturnType<typeof repo.findEvent>>>;

const objectOf = (event: EventRow): Record<string, unknown> => {
  const data = (event.payload as { data?: { object?: Record<string, unknown> } }).data;
  return data?.object ?? {};
};

export class MailComposer {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly outbox: MailOutbox,
    /** BILLOW_PUBLIC_URL: without it emails carry no portal link and no logo (no absolute address is known). */
    private readonly publicUrl: string | null = null,
  ) {}

  /** The email of one event; answers what was done, for the job's log. */
  async compose(eventId: string): Promise<string | undefined> {
    const event = await repo.findEvent(this.db, eventId);
    const kind = event ? KINDS[event.type] : undefined;
    if (!event || !kind) return undefined;
    const environment = event.environment === 'sandbox' ? 'sandbox' : 'production';
    const object = objectOf(event);
    const to = recipientOf(object);
    if (!to || (await repo.messageOfEvent(this.db, eventId, kind.kind))) return undefined;
    if (!(await kindEnabled(this.db, event.environment_id, kind.kind))) return `no ${kind.kind} email for event ${eventId}: switched off`;
    if (!this.outbox.canSend(environment)) return `no ${kind.kind} email for event ${eventId}: no SMTP server is configured`;
    const scope = { organizationId: event.organization_id, environmentId: event.environment_id, environment, baseUrl: '', apiBase: '' } as const;
    const rendered = await kind.render({ db: this.db, scope, object, seller: () => this.seller(event) });
    if (!rendered) return undefined;
    const message: EventMessage = {
      ...rendered,
      to,
      organizationId: event.organization_id,
      environmentId: event.environment_id,
      environment,
      eventId,
      kind: kind.kind,
      sendBefore: new Date(this.clock.now().getTime() + SEND_WITHIN_MS),
    };
    const queued = await inTransaction(this.db, (tx) => this.outbox.queueForEvent(tx, message));
    if (queued === 'duplicate') return undefined;
    if (queued) this.outbox.deliverSoon(queued);
    return `wrote the ${kind.kind} email of event ${eventId}`;
  }

  private async seller(event: EventRow): Promise<EmailSeller> {
    const [block, pages, slug] = await Promise.all([
      sellerBlock(this.db, event.organization_id, event.environment_id),
      sellerOnPages(this.db, event.organization_id, event.environment_id),
      repo.organizationSlug(this.db, event.organization_id),
    ]);
    const address = block.address ?? {};
    const line = ADDRESS_FIELDS.map((key) => text(address[key])).filter((part): part is string => part !== null).join(', ');
    const base = this.publicUrl;
    // The portal's sign-in page (as modules/portal names it): it opens only with a code sent to the buyer's email.
    const portalUrl = base && slug ? `${base}${event.environment === 'sandbox' ? '/sandbox' : ''}/portal/${encodeURIComponent(slug)}/` : null;
    const logoUrl = base && pages.logoPath ? `${base}${pages.logoPath}` : null;
    return { displayName: block.displayName, supportEmail: block.email, address: line || null, portalUrl, logoUrl };
  }
}
