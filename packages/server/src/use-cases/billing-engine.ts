/**
 * The billing engine (decision 0029): what time does to subscriptions. Each
 * subscription's dated events (period end, trial end, scheduled end, dunning
 * attempts) are read from its own rows and run one at a time, earliest first,
 * each in its own transactions with the subscription locked, so that running
 * them twice, from two processes or after a crash, does nothing the second time.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../db/connect.js';
import { inTransaction, type Executor } from '../db/transaction.js';
import type { EntitlementChanges } from '../edge-cache/change-feed.js';
import { clockAt, type Clock } from '../lib/clock.js';
export { clockAt };
import { nextDueItem, type DueItem, type DunningSchedule, type UnpaidInvoice } from '../modules/billing/renewal.compute.js';
import { lockInvoice, unpaidInvoicesOf, type InvoiceRow } from '../modules/ledger/queries.js';
import { customersOnClock, testClockTimeOf } from '../modules/customers/queries.js';
import type { PurchaseScope } from '../modules/purchases/purchase.js';
import type { StoredRequest } from './planned-payment.js';
import type { IntentRow } from '../modules/intents/queries.js';
import { collectInvoice, type CollectionResult } from './collect-invoice.js';
import { invoiceNotFound, isNotNow } from '../modules/subscriptions/errors.js';
import { environmentScope, expirePendingChange, type EnvironmentScope } from '../modules/subscriptions/lifecycle.js';
import { renewSubscription, type EngineDeps, type RenewalItem, type RenewedState } from './renew-subscription.js';
import * as repo from '../modules/subscriptions/queries.js';

export interface BillingEngineOptions {
  db: Db;
  /** Real time: when a subscription of a customer without a test clock renews, and what its records say. */
  clock: Clock;
  changes: EntitlementChanges | null;
  dunning: DunningSchedule;
}

/** Customers announced in one transaction when a test clock moved. */
const ANNOUNCE_BATCH = 50;

function unpaidOf(invoices: InvoiceRow[]): { next: UnpaidInvoice | null; byId: Map<string, InvoiceRow> } {
  const scheduled = invoices.filter((i) => i.next_attempt_at !== null).sort((a, b) => a.next_attempt_at!.getTime() - b.next_attempt_at!.getTime());
  const first = scheduled[0];
  return { next: first ? { id: first.id, nextAttemptAt: first.next_attempt_at } : null, byId: new Map(invoices.map((i) => [i.id, i])) };
}

function timed(row: repo.SubscriptionRow) {
  return { status: row.status, chargePeriod: row.charge_period, currentPeriodEnd: row.current_period_end, trialEnd: row.trial_end, endDate: row.end_date };
}

/** A subscription's earliest item due by a time, with the unpaid invoice a dunning attempt is for. */
export interface NextItem {
  item: DueItem;
  invoice?: InvoiceRow;
}

function nextItemOf(row: repo.SubscriptionRow, unpaidInvoices: InvoiceRow[], at: Date): NextItem | null {
  const unpaid = unpaidOf(unpaidInvoices);
  const item = nextDueItem(timed(row), unpaid.next, at);
  if (!item) return null;
  return item.kind === 'collect' ? { item, invoice: unpaid.byId.get(item.invoiceId)! } : { item };
}

export class BillingEngine {
  private readonly deps: EngineDeps;
  private readonly scopes = new Map<string, EnvironmentScope>();

  constructor(private readonly options: BillingEngineOptions) {
    this.deps = {
      db: options.db,
      dunning: options.dunning,
      announce: async (tx, environmentId, customerId) => {
        await options.changes?.announce(tx, environmentId, customerId);
      },
      notice: options.changes?.notice ? (environmentId, customerId) => options.changes!.notice!(environmentId, customerId) : undefined,
    };
  }

  /**
   * What falls due first for the subscription by `at`, with the unpaid invoice a dunning attempt
   * is for; `hasUnpaidInvoice` false (read with the row) spares the look at its invoices.
   */
  async nextItem(db: Executor, row: repo.SubscriptionRow, at: Date, hasUnpaidInvoice = true): Promise<NextItem | null> {
    return nextItemOf(row, hasUnpaidInvoice ? await unpaidInvoicesOf(db, [row.id]) : [], at);
  }

  /** nextItem of each of the subscriptions (those with nothing due by `at` left out), their unpaid invoices read in one query. */
  async nextItems(db: Executor, rows: repo.SubscriptionRow[], at: Date): Promise<Map<string, NextItem>> {
    const invoices = new Map<string, InvoiceRow[]>();
    for (const invoice of await unpaidInvoicesOf(db, rows.map((row) => row.id))) {
      const of = invoices.get(invoice.subscription_id!);
      if (of) of.push(invoice);
      else invoices.set(invoice.subscription_id!, [invoice]);
    }
    const items = new Map<string, NextItem>();
    for (const row of rows) {
      const next = nextItemOf(row, invoices.get(row.id) ?? [], at);
      if (next) items.set(row.id, next);
    }
    return items;
  }

  /**
   * Runs one item of the subscription; `clock` gives the time it happens at. False when
   * it was not for now (done meanwhile, or another payment of the customer under way).
   * `customerId`, the seller's identifier of its customer, when the caller has read it.
   */
  async runItem(row: repo.SubscriptionRow, due: NextItem, clock: Clock): Promise<boolean> {
    return (await this.run(row, due, clock)) !== false;
  }

  /** runItem, telling what a renewal left (for catchUp's next look) when it ran one. */
  private async run(
    row: repo.SubscriptionRow,
    due: NextItem,
    clock: Clock,
    customerId?: string,
  ): Promise<false | { renewed?: RenewedState }> {
    const scope = await this.scopeOf(row.environment_id);
    const { item } = due;
    const ran: { renewed?: RenewedState } = {};
    try {
      if (item.kind === 'collect') await collectInvoice(this.deps, clock, scope, due.invoice!, { kind: 'due', at: item.at });
      else await renewSubscription(this.deps, clock, scope, row.id, { kind: item.kind, at: item.at }, (state) => (ran.renewed = state));
    } catch (error) {
      if (isNotNow(error)) return false;
      throw error;
    } finally {
      await this.forget(row, customerId);
    }
    return ran;
  }

  /**
   * Everything due for the subscription by now, earliest first, as the real-time
   * job runs it. Returns how many items ran.
   */
  async catchUp(subscriptionId: string, limit = 100): Promise<number> {
    let ran = 0;
    while (ran < limit) {
      // One query: the row, its customer's identifier, and whether its invoices need a look.
      const state = await repo.billingStateOf(this.options.db, subscriptionId);
      const due = state ? await this.nextItem(this.options.db, state.row, this.options.clock.now(), state.hasUnpaidInvoice) : null;
      const outcome = state && due ? await this.run(state.row, due, this.options.clock, state.customerId) : false;
      if (!outcome) break;
      ran++;
      // A renewal that left nothing due (its next period ends later, no invoice unpaid) needs no second look.
      const renewed = outcome.renewed;
      if (renewed && !renewed.hasUnpaidInvoice && !nextDueItem(timed(renewed.row), null, this.options.clock.now())) break;
    }
    return ran;
  }

  /**
   * Collects an unpaid renewal invoice now, as the seller asks (POST /invoices/{id}/pay/),
   * at the customer's time (their test clock's, if they have one).
   */
  async collectNow(scope: PurchaseScope, invoiceId: string): Promise<CollectionResult> {
    const invoice = await inTransaction(this.options.db, (tx) => lockInvoice(tx, scope.environmentId, invoiceId));
    if (!invoice?.subscription_id) throw invoiceNotFound(invoiceId);
    const clockTime = await testClockTimeOf(this.options.db, invoice.customer_id);
    const clock = clockTime ? clockAt(clockTime) : this.options.clock;
    try {
      return await collectInvoice(this.deps, clock, scope, invoice, { kind: 'manual' });
    } finally {
      const row = await repo.findSubscriptionById(this.options.db, invoice.subscription_id);
      if (row) await this.forget(row);
    }
  }

  /**
   * A renewal or a collection whose process died before settling its payment, for the
   * recovery task: run again, at the customer's time, under the intent's own key, which
   * completes that intent (the provider asked again under its key) instead of paying anew.
   */
  async completeStale(intent: IntentRow): Promise<void> {
    const { body } = intent.request as unknown as StoredRequest;
    const scope = await environmentScope(this.options.db, intent.environment_id);
    const clockTime = await testClockTimeOf(this.options.db, intent.customer_id);
    const clock = clockTime ? clockAt(clockTime) : this.options.clock;
    if (intent.kind === 'renewal') {
      const item = { kind: body.kind as RenewalItem['kind'], at: new Date(String(body.at)) };
      await renewSubscription(this.deps, clock, scope, String(body.subscriptionId), item);
      return;
    }
    const invoice = await inTransaction(this.options.db, (tx) => lockInvoice(tx, scope.environmentId, String(body.invoiceId)));
    if (!invoice) throw invoiceNotFound(String(body.invoiceId));
    const trigger = body.trigger === 'due' ? { kind: 'due' as const, at: new Date(String(body.at)) } : { kind: 'manual' as const };
    // The attempt the intent was made for, not the invoice's count now: another process may have settled it meanwhile.
    const key = intent.idempotency_key ?? '';
    const attempt = Number(key.slice(key.lastIndexOf(':') + 1));
    if (!Number.isInteger(attempt) || attempt < 1) throw new Error(`Intent ${intent.id} has no attempt in its key`);
    await collectInvoice(this.deps, clock, scope, { id: invoice.id, attempt_count: attempt - 1 }, trigger);
  }

  /**
   * A test clock moved: what its customers may use is worked out again at its new time, in every
   * process. Announced a batch of customers a transaction, with a turn of the event loop between
   * batches: on the embedded database a transaction holds the one session.
   */
  async clockMoved(testClockId: string): Promise<void> {
    const changes = this.options.changes;
    if (!changes) return;
    const customers = await customersOnClock(this.options.db, testClockId);
    for (let from = 0; from < customers.length; from += ANNOUNCE_BATCH) {
      const batch = customers.slice(from, from + ANNOUNCE_BATCH);
      await inTransaction(this.options.db, async (tx) => {
        for (const c of batch) await changes.announce(tx, c.environment_id, c.customer_id);
      });
      for (const c of batch) changes.forget(c.environment_id, c.customer_id);
      await nextTurn();
    }
  }

  /** A test clock passed the time an activate_on_payment change waited for its payment until: it expires then. */
  expirePending(environmentId: string, subscriptionId: string, at: Date): Promise<boolean> {
    return expirePendingChange(this.options.db, environmentId, subscriptionId, at);
  }

  /** Subscriptions of customers in real time with something due now; `unqueuedAs`: without a live job of that name keyed by their id. */
  dueNow(limit: number, unqueuedAs: string | null = null): Promise<{ id: string; environment_id: string }[]> {
    return repo.dueSubscriptions(this.options.db, this.options.clock.now(), limit, unqueuedAs);
  }

  /** This process reads its own change at once; other processes hear of it through the change feed. */
  private async forget(row: repo.SubscriptionRow, customerId?: string): Promise<void> {
    if (!this.options.changes) return;
    this.options.changes.forget(row.environment_id, customerId ?? (await repo.customerIdOf(this.options.db, row.customer_id)));
  }

  /** The environment's scope, read once a process: an environment's organization and kind never change. */
  private async scopeOf(environmentId: string): Promise<EnvironmentScope> {
    let scope = this.scopes.get(environmentId);
    if (!scope) {
      scope = await environmentScope(this.options.db, environmentId);
      this.scopes.set(environmentId, scope);
    }
    return scope;
  }
}
