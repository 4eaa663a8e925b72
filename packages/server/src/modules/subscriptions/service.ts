import type { Clock } from '../../lib/clock.js';
import type { Db } from '../../db/connect.js';
import type { PageRequest } from '../../lib/pagination.js';
import { type PurchaseScope } from '../purchases/purchase.js';
import { expirePendingChange } from './lifecycle.js';
import * as repo from './repo.js';
import { customerFilterMissing, planUnknown, planVersionWithoutPlan, subscriptionNotFound } from './errors.js';
import { upcomingInvoice } from './preview.js';
import { parseStatuses } from './requests.compute.js';
import { presentSubscription, presentSubscriptions } from './view.js';

/** What a list of subscriptions is filtered by: the reference's customer_id and status, and Billow's plan and search. */
export interface SubscriptionListFilters {
  customer_id?: string;
  status?: string;
  plan?: string;
  plan_version?: number;
  search?: string;
}

export interface SubscriptionScope extends PurchaseScope {
  apiBase: string;
}

/** The job that ends a pending activate_on_payment change at its expiry (payload: environmentId, subscriptionId). */
export const EXPIRE_PENDING_UPDATE_JOB = 'expire-pending-subscription-update';

/** How long an activate_on_payment update waits for its payment before it expires, unless configured. */
export const PENDING_UPDATE_TTL_MS = 23 * 60 * 60 * 1000;
export class SubscriptionService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** What the next renewal will charge (preview.ts): nothing is charged or written. */
  upcomingInvoice(scope: SubscriptionScope, id: string) {
    return upcomingInvoice(this.db, scope.environmentId, id);
  }

  async get(scope: SubscriptionScope, id: string) {
    const row = await repo.findSubscription(this.db, scope.environmentId, id);
    if (!row) throw subscriptionNotFound();
    return presentSubscription(this.db, row, scope.apiBase, this.clock.now());
  }

  /**
   * One customer's subscriptions, as the reference lists them; with one of Billow's list
   * parameters (plan, search, sort: decision 0079), the customer may be left out to list
   * every customer's.
   */
  async list(scope: SubscriptionScope, query: SubscriptionListFilters, page: PageRequest, sort: repo.SubscriptionSort | null = null) {
    const customerId = query.customer_id;
    const search = query.search?.trim() || undefined;
    const extended = query.plan !== undefined || query.search !== undefined || sort !== null;
    if (!customerId && !extended) throw customerFilterMissing();
    if (query.plan_version !== undefined && query.plan === undefined) throw planVersionWithoutPlan();
    const statuses = query.status ? parseStatuses(query.status) : null;
    const customerPk = customerId ? await repo.customerPkOf(this.db, scope.environmentId, customerId) : null;
    if (customerPk === undefined) return { count: 0, capped: false, results: [] };
    const planIds = query.plan === undefined ? undefined : await repo.planIdsNamed(this.db, scope.environmentId, query.plan.trim());
    if (planIds?.length === 0) return { count: 0, capped: false, results: [] };
    const now = this.clock.now();
    const filter = { environmentId: scope.environmentId, customerId: customerPk, statuses, planIds, planVersion: query.plan_version, search, now };
    const { count, capped } = await repo.countSubscriptions(this.db, filter, page.countUpTo ?? null);
    // Every customer's: newest first by creation, which the environment's indexes keep in order.
    const order = sort ?? (customerPk === null ? ({ field: 'createdOn', direction: 'desc' } as const) : null);
    const rows = page.offset >= count ? [] : await repo.listSubscriptions(this.db, filter, { limit: page.pageSize, offset: page.offset, sort: order });
    return { count, capped, results: await presentSubscriptions(this.db, rows, scope.apiBase, now) };
  }

  /** Every version of a plan with how many subscriptions the list would show on it (decision 0086); 404 for an unknown plan. */
  async countsByVersion(scope: SubscriptionScope, query: { plan: string; status?: string }) {
    const statuses = query.status ? parseStatuses(query.status) : null;
    const plan = query.plan.trim();
    const planIds = await repo.planIdsNamed(this.db, scope.environmentId, plan);
    if (planIds.length === 0) throw planUnknown(plan);
    const identifier = await repo.planIdentifierOf(this.db, planIds[0]!);
    const versions = await repo.countsByVersion(this.db, { environmentId: scope.environmentId, customerId: null, statuses, planIds, now: this.clock.now() });
    return { plan: identifier, versions };
  }

  /**
   * A pending activate_on_payment change whose time ran out ends (its job); the current subscription stays.
   * False when it is no longer pending (paid or ended meanwhile); an error when its time has not run out.
   */
  async expirePendingUpdate(environmentId: string, subscriptionId: string): Promise<boolean> {
    return expirePendingChange(this.db, environmentId, subscriptionId, this.clock.now());
  }
}
