/** What a subscription request asks, read and checked: the statuses of a list, the end of a cancellation. Pure. */
import type { SubscriptionCancel } from '@billow/contract';
import { cancellationDateInPast, cancellationDateInvalid, cancellationDateMissing, unknownStatusFilter } from './errors.js';
import type { SubscriptionRow } from './repo.js';

const STATUSES = ['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'superseded'] as const;

/** `status=active,past_due` as a list of statuses; an unknown one is refused (400). */
export function parseStatuses(text: string): SubscriptionRow['status'][] {
  const wanted = text.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = wanted.find((s) => !(STATUSES as readonly string[]).includes(s));
  if (unknown) throw unknownStatusFilter(unknown, STATUSES);
  return wanted as SubscriptionRow['status'][];
}

/** When a cancellation asked at `now` ends the subscription: now, at its period end, or on a date (yyyy-MM-dd, not past). */
export function cancellationEnd(input: SubscriptionCancel, row: Pick<SubscriptionRow, 'current_period_end'>, now: Date): Date {
  if (input.cancellationType === 'IMMEDIATE') return now;
  if (input.cancellationType === 'CURRENT_PERIOD_ENDS') return row.current_period_end ?? now;
  if (!input.cancellationDate || !/^\d{4}-\d{2}-\d{2}$/.test(input.cancellationDate)) throw cancellationDateMissing();
  const endDate = new Date(`${input.cancellationDate}T00:00:00Z`);
  if (Number.isNaN(endDate.getTime())) throw cancellationDateInvalid();
  if (endDate.getTime() < Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())) throw cancellationDateInPast();
  return endDate;
}
