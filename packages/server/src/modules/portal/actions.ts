import { CANCELLATION_FEEDBACK, type SubscriptionCancel } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { cardProblemOf, expiryOf, hasPersonMessage } from '../../page-kit/card-form.js';
import type { Sent } from '../../page-kit/forms.js';
import { STRIPE_METHOD_ID } from '../../page-kit/stripe-element.js';
import { actingAs } from '../../lib/actor.js';
import { DomainError } from '../../lib/domain-error.js';
import type { Clock } from '../../lib/clock.js';
import { TaxIdRefused } from '../customers/errors.js';
import type { CustomerService } from '../customers/service.js';
import type { InvoiceCollector } from '../invoices/routes.js';
import type { LicenseService } from '../licenses/service.js';
import type { PaymentMethodService } from '../payments/methods.service.js';
import { isCardExpired, isInvalidCardNumber } from '../payments/errors.js';
import { stripeElementKey } from '../payments/providers.js';
import { previewChange, resumeSubscription, type ChangePreview } from '../subscriptions/self-service.js';
import type { SubscriptionWrites } from '../subscriptions/ports.js';
import { PortalNotFound, portalRefusal } from './errors.js';
import type { PortalModel, PortalScope } from './reader.js';
import type { PortalAccess } from './sessions.js';

export interface ActionServices {
  db: Db;
  clock: Clock;
  subscriptions: SubscriptionWrites;
  methods: PaymentMethodService;
  licenses: LicenseService;
  customers: CustomerService;
  collectInvoice: InvoiceCollector;
}

/** One form submission: who sends it, where, the page's model (what this customer owns) and the fields. */
export interface Submission {
  access: PortalAccess;
  scope: PortalScope;
  model: PortalModel;
  sent: Sent;
}

/**
 * The portal's actions; after each succeeded the redirect names it (`?done=cancel`), and the
 * page says so in the customer's words (`done.<action>` in the catalogues), as it does for a
 * form sent twice (`?done=duplicate`).
 */
export const ACTIONS = ['cancel', 'resume', 'change_plan', 'add_card', 'make_default', 'remove_card', 'pay_invoice', 'deactivate', 'billing'] as const;
export type PortalAction = (typeof ACTIONS)[number];
export const isAction = (name: string): name is PortalAction => (ACTIONS as readonly string[]).includes(name);
/** What a `?done=` may name: an action, or a form sent twice. */
export const isNotice = (name: string): name is PortalAction | 'duplicate' => isAction(name) || name === 'duplicate';

/** A card the payments module refused, in the customer's words (never "Luhn" or "expMonth"). */
function cardRefusal(error: DomainError): DomainError {
  const cardField = /^(cardNumber|expMonth|expYear|cvc)\b/.test(error.detail);
  if (!cardField && !isInvalidCardNumber(error) && !isCardExpired(error)) return error;
  const problem = cardProblemOf(error);
  return portalRefusal(problem.message, error.code, problem.key, problem.values);
}

const field = (sent: Sent, name: string) => (sent[name] ?? '').trim();

/** The PaymentMethod Stripe's element created on the page (Stripe says whether it exists when it is attached). */
function stripeMethodOf(s: Submission): string {
  const id = field(s.sent, 'stripe_payment_method');
  if (!STRIPE_METHOD_ID.test(id)) throw portalRefusal('Enter your card in the card field, then save it.', null, 'refused.stripeCard');
  return id;
}

function typedExpiry(s: Submission) {
  const expiry = expiryOf(s.sent.expiry);
  if (!expiry) throw portalRefusal('Enter the expiry date as MM / YY, for example 12 / 30.', null, 'problem.expiryFormat');
  return expiry;
}

/** The customer's own subscription named by a form, or 404. */
function ownSubscription(s: Submission) {
  const card = s.model.subscriptions.find((c) => c.subscription.id === field(s.sent, 'subscription'));
  if (!card) throw new PortalNotFound('subscription');
  return card;
}

/** A change the customer may make: a published plan of the subscription's product, in a period it sells. */
export function ownChange(model: PortalModel, subscriptionId: string, plan: string, period: string) {
  const card = model.subscriptions.find((c) => c.subscription.id === subscriptionId);
  if (!card) throw new PortalNotFound('subscription');
  const choice = card.choices.find((c) => c.identifier === plan && c.periods.includes(period));
  if (!choice) throw portalRefusal('That plan or billing period is not available for this subscription.', null, 'refused.planUnavailable');
  return card;
}

/**
 * The portal's actions (decision 0037): each goes through the service the API uses, with the
 * same rules, events and webhooks, as the actor `customer_portal`; each first checks that the
 * object named by the form is this customer's (another's is 404, as if it did not exist).
 */
export class PortalActions {
  constructor(private readonly services: ActionServices) {}

  preview(scope: PortalScope, subscriptionId: string, plan: string, period: string): Promise<ChangePreview> {
    return previewChange(this.services.db, this.services.clock, scope, subscriptionId, { planIdentifier: plan, chargePeriod: period });
  }

  run(action: string, submission: Submission): Promise<void> {
    return actingAs('customer_portal', () => this.dispatch(action, submission));
  }

  private async dispatch(action: string, s: Submission): Promise<void> {
    const { subscriptions, methods } = this.services;
    switch (action) {
      case 'cancel':
        return this.cancel(s);
      case 'resume':
        return resumeSubscription(this.services.db, this.services.clock, s.scope, ownSubscription(s).subscription.id);
      case 'change_plan': {
        const card = ownChange(s.model, field(s.sent, 'subscription'), field(s.sent, 'plan'), field(s.sent, 'period'));
        const claim = { scope: `portal:${s.scope.environmentId}`, key: `${s.access.sessionId}:${field(s.sent, 'nonce')}` };
        await subscriptions.update(s.scope, card.subscription.id, { planIdentifier: field(s.sent, 'plan'), chargePeriod: field(s.sent, 'period') }, claim);
        return;
      }
      case 'add_card':
        return this.addCard(s);
      case 'make_default':
        await methods.makeDefault(s.scope, String(this.ownMethod(s).id));
        return;
      case 'remove_card': {
        const method = this.ownMethod(s);
        if (method.isDefault) throw portalRefusal('Your default card cannot be removed. Make another card the default first.', null, 'refused.defaultCard');
        return methods.remove(s.scope, String(method.id));
      }
      case 'pay_invoice':
        return this.payInvoice(s);
      case 'deactivate':
        return this.deactivate(s);
      case 'billing':
        return this.billing(s);
      default:
        throw portalRefusal('This form is not one the portal knows. Reload the page and try again.', null, 'refused.unknownForm');
    }
  }

  private async cancel(s: Submission): Promise<void> {
    const card = ownSubscription(s);
    const feedback = field(s.sent, 'feedback');
    const input: SubscriptionCancel = {
      cancellationType: 'CURRENT_PERIOD_ENDS',
      cancellationFeedback: (CANCELLATION_FEEDBACK as readonly string[]).includes(feedback) ? (feedback as SubscriptionCancel['cancellationFeedback']) : null,
      cancellationComment: field(s.sent, 'comment').slice(0, 2000) || null,
    };
    await this.services.subscriptions.cancel(s.scope, card.subscription.id, input, 'CANCELLED_BY_CUSTOMER');
  }

  private ownMethod(s: Submission) {
    const method = s.model.methods.find((m) => String(m.id) === field(s.sent, 'method'));
    if (!method) throw new PortalNotFound('payment method');
    return method;
  }

  /**
   * Saves a card: where the environment takes cards through Stripe (decided here, never by
   * the page), the PaymentMethod Stripe's element created, attached as the API attaches one;
   * else a typed sandbox test card.
   */
  private async addCard(s: Submission): Promise<void> {
    const customerId = s.access.customer.customer_id;
    const { methods } = this.services;
    const typed = async () => {
      const card = { customerId, cardNumber: field(s.sent, 'card_number'), cvc: field(s.sent, 'cvc'), ...typedExpiry(s) };
      return methods.attach(s.scope, card, { typedOnPage: true }).catch((error: unknown) => {
        throw error instanceof DomainError ? cardRefusal(error) : error;
      });
    };
    const saved = (await stripeElementKey(this.services.db, s.scope))
      ? await methods.attachStripe(s.scope, { customerId, stripePaymentMethod: stripeMethodOf(s) })
      : await typed();
    if (s.sent.make_default && !saved.isDefault) await methods.makeDefault(s.scope, String(saved.id));
  }

  private async payInvoice(s: Submission): Promise<void> {
    const invoice = s.model.subscriptions.map((c) => c.unpaid).find((i) => i?.id === field(s.sent, 'invoice'));
    if (!invoice) throw new PortalNotFound('invoice');
    const result = await this.services.collectInvoice(s.scope, invoice.id);
    if (result.outcome !== 'paid') {
      const key = result.code && hasPersonMessage(result.code) ? `problem.${result.code}` : 'refused.paymentFailed';
      throw portalRefusal(result.message ?? 'The payment did not go through. Try another card.', result.code, key);
    }
  }

  private async deactivate(s: Submission): Promise<void> {
    const license = s.model.licenses.find((l) => l.id === field(s.sent, 'license'));
    const instance = license?.instances.find((i) => i.id === field(s.sent, 'instance'));
    if (!license || !instance) throw new PortalNotFound('license instance');
    await this.services.licenses.deactivate(s.scope, { licenseKey: license.licenseKey, instanceId: instance.id });
  }

  /** The address and the tax id, saved together or not at all; a tax id refused is said in the customer's words. */
  private async billing(s: Submission): Promise<void> {
    const text = (name: string) => field(s.sent, name).slice(0, 200) || null;
    try {
      await this.services.customers.update(s.scope, s.access.customer.customer_id, {
        billingAddress: { line1: text('line1'), line2: text('line2'), city: text('city'), postalCode: text('postal_code'), state: text('state'), country: text('country') },
        taxId: text('tax_id')?.slice(0, 60) ?? null,
      });
    } catch (error) {
      if (!(error instanceof TaxIdRefused)) throw error;
      const problem = error.detail.replace(/^taxIds\[0\]: /, '').replace('tax id', 'tax ID');
      const [key, values] = taxIdRefusalWords(error);
      throw portalRefusal(`Your billing details were not saved: ${problem}.`, error.code, key, values);
    }
  }
}

/** A refused tax id, as the portal's catalogue words it (the country by name in the page's language). */
function taxIdRefusalWords(error: TaxIdRefused): [string, Record<string, string>] {
  if (error.reason === 'unknown_to_register') return ['refused.taxIdUnknown', { value: error.value ?? '' }];
  if (error.reason === 'not_valid' && error.country) return ['refused.taxIdNotValid', { value: error.value ?? '', country: error.country }];
  return ['refused.taxIdInvalid', { value: error.value ?? '' }];
}
