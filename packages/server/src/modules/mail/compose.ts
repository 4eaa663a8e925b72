/**
 * Email to buyers from business events and timed reminders (decisions 0067, 0071). Writing
 * an event that buyers hear about queues a `compose-mail` job in the same statement
 * (modules/events); recording a reminder queues one in the same transaction (reminders.ts).
 * The job, after the commit, reads the event or reminder, renders the email and its
 * document (a PDF) outside any transaction, and writes one message per (event, kind), or
 * per reminder, into the outbox: a job that runs twice, or a replayed event, writes nothing more.
 */
import type { Db } from '../../db/connect.js';
import { inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import type { DunningSchedule } from '../billing/renewal.compute.js';
import { negotiateLanguage } from '../../page-kit/locale.js';
import { sellerBlock, sellerOnPages } from '../seller-profile/queries.js';
import { emailFormat, type EmailFormat } from './emails/format.js';
import type { EmailSeller } from './emails/layout.js';
import { field, recipientOf, text } from './event-object.js';
import type { Rendered } from './kind-input.js';
import { KINDS } from './kinds.js';
import type { EventMessage, MailOutbox, MessageHeaders } from './outbox.js';
import { reminderEmail, UNSUBSCRIBABLE_KINDS } from './reminder-kinds.js';
import type { ReminderFacts } from './reminders.js';
import * as repo from './repo.js';
import { findReminder } from './repo/reminders.js';
import { customerLocale } from './repo/subscriptions.js';
import { kindEnabled } from './settings.service.js';

/** How long such an email is worth sending: past it, a message that could not be sent is dropped. */
const SEND_WITHIN_MS = 7 * 24 * 60 * 60 * 1000;
const ADDRESS_FIELDS = ['line1', 'line2', 'postalCode', 'postal_code', 'city', 'state'];

type EventRow = NonNullable<Awaited<ReturnType<typeof repo.findEvent>>>;
type Environment = 'sandbox' | 'production';

interface Origin {
  organizationId: string;
  environmentId: string;
  environment: Environment;
}

/** Whose language an email is written in: the customer's, by its id or by a subscription of its. */
type Buyer = { customerId?: string | null; subscriptionId?: string | null };

/** A message to write: where it comes from, its kind, and when what it tells happened. */
interface Composed {
  origin: Origin;
  to: string;
  kind: string;
  eventId: string | null;
  reminderId: string | null;
  occurredAt: Date;
  /** Past this it is not sent (a reminder of a day gone by), in production. */
  latest: Date | null;
  render(): Promise<Rendered | null>;
}

const dataOf = (event: EventRow): { object?: Record<string, unknown>; previous_attributes?: Record<string, unknown> } =>
  (event.payload as { data?: { object?: Record<string, unknown>; previous_attributes?: Record<string, unknown> } }).data ?? {};
const environmentOf = (kind: string): Environment => (kind === 'sandbox' ? 'sandbox' : 'production');

/**
 * The seller's name on the From line and its support email as Reply-To (the profile's, decision
 * 0075); List-Unsubscribe to that address on the kinds a buyer may unsubscribe from, when it has one.
 */
function headersOf(kind: string, seller: EmailSeller): MessageHeaders {
  const support = seller.supportEmail;
  const unsubscribe = support && UNSUBSCRIBABLE_KINDS.has(kind) ? `mailto:${support}?subject=unsubscribe` : null;
  return { fromName: seller.displayName, replyTo: support, listUnsubscribe: unsubscribe };
}

export class MailComposer {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly outbox: MailOutbox,
    /** BILLOW_PUBLIC_URL: without it emails carry no portal link and no logo (no absolute address is known). */
    private readonly publicUrl: string | null = null,
    /** The billing engine's dunning schedule: which retry of a failed payment is the last. */
    private readonly dunning: DunningSchedule = [],
  ) {}

  /** The email of one event; answers what was done, for the job's log. */
  async compose(eventId: string): Promise<string | undefined> {
    const event = await repo.findEvent(this.db, eventId);
    const classify = event ? KINDS[event.type] : undefined;
    if (!event || !classify) return undefined;
    const origin = { organizationId: event.organization_id, environmentId: event.environment_id, environment: environmentOf(event.environment) };
    const { object = {}, previous_attributes: previous = {} } = dataOf(event);
    const to = recipientOf(object);
    if (!to) return undefined;
    const scope = { ...origin, baseUrl: '', apiBase: '' };
    const classified = await classify({ db: this.db, scope, object, previous, seller: () => this.seller(origin), format: () => this.format(origin, { customerId: text(field(object, 'customer').id) }), dunning: this.dunning });
    if (!classified) return undefined;
    const what = `the ${classified.kind} email of event ${eventId}`;
    return this.write({ origin, to, kind: classified.kind, eventId, reminderId: null, occurredAt: event.created_at, latest: null, render: classified.render }, what);
  }

  /** The email of a recorded reminder (decision 0071). */
  async composeReminder(reminderId: string): Promise<string | undefined> {
    const reminder = await findReminder(this.db, reminderId);
    if (!reminder) return undefined;
    const origin = { organizationId: reminder.organization_id, environmentId: reminder.environment_id, environment: environmentOf(reminder.environment) };
    const facts = reminder.facts as ReminderFacts;
    const to = text(facts.email);
    if (!to) return undefined;
    const render = async () => reminderEmail({ ...reminder, facts }, await this.seller(origin), await this.format(origin, { subscriptionId: reminder.subscription_id }));
    const what = `the ${reminder.kind} email of reminder ${reminderId}`;
    return this.write({ origin, to, kind: reminder.kind, eventId: null, reminderId, occurredAt: reminder.due_at, latest: reminder.occasion, render }, what);
  }

  /** Checks, renders and writes a message once: not for an existing one, a switched-off kind, or production without SMTP. */
  private async write(c: Composed, what: string): Promise<string | undefined> {
    const existing = c.eventId ? await repo.messageOfEvent(this.db, c.eventId, c.kind) : await repo.messageOfReminder(this.db, c.reminderId!);
    if (existing) return undefined;
    if (!(await kindEnabled(this.db, c.origin.environmentId, c.kind))) return `no ${what}: switched off`;
    if (!this.outbox.canSend(c.origin.environment)) return `no ${what}: no SMTP server is configured`;
    const rendered = await c.render();
    if (!rendered) return undefined;
    const headers = headersOf(c.kind, await this.seller(c.origin));
    const now = this.clock.now().getTime();
    // A reminder is worth sending until what it announces (production keeps real time; a sandbox's test clock may not).
    const latest = c.latest && c.origin.environment === 'production' ? c.latest.getTime() : Infinity;
    const message: EventMessage = {
      ...rendered,
      ...c.origin,
      to: c.to,
      eventId: c.eventId,
      reminderId: c.reminderId,
      kind: c.kind,
      occurredAt: c.occurredAt,
      headers,
      sendBefore: new Date(Math.min(now + SEND_WITHIN_MS, latest)),
    };
    const queued = await inTransaction(this.db, (tx) => this.outbox.queueForEvent(tx, message));
    if (queued === 'duplicate') return undefined;
    if (queued) this.outbox.deliverSoon(queued);
    return `wrote ${what}`;
  }

  /** Words, money and dates in the buyer's language: the customer's locale, else the seller's default language, else English (decision 0075). */
  private async format(origin: Origin, buyer: Buyer): Promise<EmailFormat> {
    const [block, locale] = await Promise.all([sellerBlock(this.db, origin.organizationId, origin.environmentId), customerLocale(this.db, origin.environmentId, buyer)]);
    return emailFormat(block.timeZone, negotiateLanguage({ customerLocale: locale, sellerLanguage: block.language }));
  }

  private async seller(origin: Origin): Promise<EmailSeller> {
    const [block, pages, slug] = await Promise.all([
      sellerBlock(this.db, origin.organizationId, origin.environmentId),
      sellerOnPages(this.db, origin.organizationId, origin.environmentId),
      repo.organizationSlug(this.db, origin.organizationId),
    ]);
    const address = block.address ?? {};
    const line = ADDRESS_FIELDS.map((key) => text(address[key])).filter((part): part is string => part !== null).join(', ');
    const base = this.publicUrl;
    // The portal's sign-in page (as modules/portal names it): it opens only with a code sent to the buyer's email.
    const portalUrl = base && slug ? `${base}${origin.environment === 'sandbox' ? '/sandbox' : ''}/portal/${encodeURIComponent(slug)}/` : null;
    const logoUrl = base && pages.logoPath ? `${base}${pages.logoPath}` : null;
    return {
      displayName: block.displayName,
      supportEmail: block.email,
      address: line || null,
      country: text(address.country),
      portalUrl,
      logoUrl,
      timeZone: block.timeZone,
      brandColor: pages.brandColor,
    };
  }
}
