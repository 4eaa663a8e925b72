import type { Clock } from '../../lib/clock.js';
import type { Db } from '../../db/connect.js';
import type { PageRequest } from '../../lib/pagination.js';
import { type PurchaseScope } from '../purchases/purchase.js';
import { expirePendingChange } from './lifecycle.js';
import * as repo from './repo.js';
import { customerFilterMissing, subscriptionNotFound } from './errors.js';
import { upcomingInvoice } from './preview.js';
import { parseStatuses } from './requests.compute.js';
import { presentSubscription, presentSubscriptions } from './view.js';

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

  async list(scope: SubscriptionScope, customerId: string | undefined, status: string | undefined, page: PageRequest) {
    if (!customerId) throw customerFilterMissing();
    const statuses = status ? parseStatuses(status) : null;
    const customerPk = await repo.customerPkOf(this.db, scope.environmentId, customerId);
    if (!customerPk) return { count: 0, results: [] };
    const now = this.clock.now();
    const filter = { environmentId: scope.environmentId, customerId: customerPk, statuses, now };
    const count = await repo.countSubscriptions(this.db, filter);
    const rows = page.offset >= count ? [] : await repo.listSubscriptions(this.db, filter, page.pageSize, page.offset);
    return { count, results: await presentSubscriptions(this.db, rows, scope.apiBase, now) };
  }

  /**
   * A pending activate_on_payment change whose time ran out ends (its job); the current subscription stays.
   * False when it is no longer pending (paid or ended meanwhile); an error when its time has not run out.
   */
  async expirePendingUpdate(environmentId: string, subscriptionId: string): Promise<boolean> {
    return expirePendingChange(this.db, environmentId, subscriptionId, this.clock.now());
  }
}
