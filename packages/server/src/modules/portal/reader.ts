import type { CreditNote, Invoice, Order, PaymentMethod, Subscription, UpcomingInvoice } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { DomainError } from '../../lib/domain-error.js';
import { findPlan, planChoices, publishedPlansOfProduct, type PlanChoice } from '../catalog/queries.js';
import type { CreditNoteService } from '../credit-notes/service.js';
import type { InvoiceService } from '../invoices/service.js';
import { customerLicenses, type CustomerLicense } from '../licenses/queries.js';
import type { OrderService } from '../orders/service.js';
import type { PaymentMethodService } from '../payments/methods.service.js';
import type { SubscriptionService } from '../subscriptions/service.js';
import type { PortalAccess } from './sessions.js';

/** Where the portal acts and what its links print: the session's environment, this server's URLs. */
export interface PortalScope {
  organizationId: string;
  environmentId: string;
  environment: 'sandbox' | 'production';
  baseUrl: string;
  apiBase: string;
}

export interface SubscriptionCard {
  subscription: Subscription;
  /** What the next renewal will charge (the upcoming-invoice preview); null when none will come. */
  upcoming: UpcomingInvoice | null;
  /** The plans and periods the customer may change to (the product's published plans). */
  choices: PlanChoice[];
  /** The unpaid renewal invoice of a past_due subscription, with its pay button. */
  unpaid: Invoice | null;
}

export interface PortalModel {
  subscriptions: SubscriptionCard[];
  methods: PaymentMethod[];
  invoices: Invoice[];
  creditNotes: CreditNote[];
  orders: Order[];
  licenses: CustomerLicense[];
}

/** Enough rows for one customer's page; the portal shows the newest this many of each. */
const PAGE = { page: 1, pageSize: 50, offset: 0 };

export interface ReaderServices {
  db: Db;
  subscriptions: SubscriptionService;
  methods: PaymentMethodService;
  orders: OrderService;
  invoices: InvoiceService;
  creditNotes: CreditNoteService;
}

/** What the portal shows of one customer, read through the same services as the API. */
export class PortalReader {
  constructor(private readonly services: ReaderServices) {}

  async model(access: PortalAccess, scope: PortalScope): Promise<PortalModel> {
    const customerId = access.customer.customer_id;
    const { subscriptions, methods, orders, invoices, creditNotes, db } = this.services;
    const [subs, methodList, orderList, invoiceList, creditNoteList, licenses] = await Promise.all([
      subscriptions.list(scope, { customer_id: customerId }, PAGE),
      methods.list(scope, { customerId }, PAGE),
      orders.list(scope, { customer_id: customerId }, PAGE),
      invoices.list(scope, { customer_id: customerId }, PAGE),
      creditNotes.list(scope, { customer_id: customerId }, PAGE),
      customerLicenses(db, scope.environmentId, access.customer.id),
    ]);
    const cards = await Promise.all(subs.results.map((s) => this.card(scope, s, invoiceList.results)));
    return { subscriptions: cards, methods: methodList.results, invoices: invoiceList.results, creditNotes: creditNoteList.results, orders: orderList.results, licenses };
  }

  private async card(scope: PortalScope, subscription: Subscription, invoices: Invoice[]): Promise<SubscriptionCard> {
    const upcoming = await this.services.subscriptions.upcomingInvoice(scope, subscription.id).catch((error: unknown) => {
      if (error instanceof DomainError) return null;
      throw error;
    });
    const unpaid =
      subscription.status === 'past_due'
        ? (invoices.find((i) => i.subscriptionId === subscription.id && (i.status === 'PAYMENT_FAILED' || i.status === 'OPEN')) ?? null)
        : null;
    return { subscription, upcoming, choices: await this.choicesOf(scope, subscription), unpaid };
  }

  private async choicesOf(scope: PortalScope, subscription: Subscription): Promise<PlanChoice[]> {
    if (subscription.billingType !== 'SUBSCRIPTION' || !['active', 'trialing', 'past_due'].includes(subscription.status)) return [];
    const db = this.services.db;
    const plan = await findPlan(db, scope.environmentId, subscription.plan.identifier);
    if (!plan) return [];
    const identifiers = await publishedPlansOfProduct(db, plan.product_id);
    const choices = await planChoices(db, scope.environmentId, identifiers, subscription.currency.toUpperCase());
    return choices.map((c) => ({ ...c, periods: c.periods.filter((p) => p !== 'ONE_TIME') })).filter((c) => c.periods.length > 0);
  }
}
