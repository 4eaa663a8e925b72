/**
 * The timed reminders of buyer emails (decision 0071): a trial's end, a yearly renewal, a
 * card that will not last until the next charge. Each falls due at an instant worked out
 * from the subscription as it stands (reminders.compute.ts) and is recorded once per
 * (subscription, kind, occasion), with the facts its email tells and the compose-mail job
 * that writes it, in one transaction. Real-time subscriptions are found by a sweep; those
 * of a test clock's customers by the clock's advance, at the simulated instant
 * (modules/test-clocks, through its ClockReminders port).
 */
import { REMINDER_DAYS } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import { DomainError } from '../../lib/domain-error.js';
import { COMPOSE_MAIL_JOB } from '../events/queries.js';
import { enqueueJob } from '../jobs/service.js';
import { upcomingInvoice, type SubscriptionRow } from '../subscriptions/queries.js';
import { environmentById } from '../tenancy/queries.js';
import { plannedReminders, reminderKey, YEARLY_OR_LONGER, type CardOnFile, type PlannedReminder, type ReminderDays } from './reminders.compute.js';
import { insertReminder, recordedReminders } from './repo/reminders.js';
import { reminderCandidates, reminderSubject, usableCards, type CardRow } from './repo/subscriptions.js';
import type { SettingsRow } from './repo/settings.js';
import { settingsOf } from './settings.service.js';

/** Reminders one sweep records at most; the next sweep takes the rest. */
const SWEEP_BATCH = 500;

const daysOf = (settings: SettingsRow): ReminderDays => ({
  trial_ending: settings.trial_ending ? settings.trial_ending_days : null,
  upcoming_renewal: settings.upcoming_renewal ? settings.upcoming_renewal_days : null,
  card_expiring: settings.card_expiring ? settings.card_expiring_days : null,
});

const cardOf = (card: Pick<CardRow, 'exp_month' | 'exp_year'> | undefined): CardOnFile | null =>
  card?.exp_month && card.exp_year ? { expMonth: card.exp_month, expYear: card.exp_year } : null;

const subjectOf = (row: SubscriptionRow) => ({
  status: row.status,
  chargePeriod: row.charge_period,
  startDate: row.start_date,
  currentPeriodStart: row.current_period_start,
  currentPeriodEnd: row.current_period_end,
  trialEnd: row.trial_end,
  endDate: row.end_date,
});

/** What a reminder's email tells, as it stands when the reminder falls due (kept with it: an advance moves on before the email is written). */
export interface ReminderFacts extends Record<string, unknown> {
  email: string | null;
  productName: string;
  planName: string;
  /** What the announced charge will be (the upcoming invoice's total); null when it cannot be worked out. */
  amountMinor: number | null;
  currency: string | null;
  card: { last4: string | null; expMonth: number | null; expYear: number | null } | null;
}

export class Reminders {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** The earliest reminder of each subscription due by `by` and not yet recorded (a test clock's advance asks). */
  async dueFor(rows: SubscriptionRow[], by: Date): Promise<Map<string, PlannedReminder>> {
    const live = rows.filter((row) => row.status === 'trialing' || row.status === 'active');
    const due = new Map<string, PlannedReminder>();
    if (live.length === 0) return due;
    const recorded = await this.recordedOf(live);
    for (const environmentId of new Set(live.map((row) => row.environment_id))) {
      const mine = live.filter((row) => row.environment_id === environmentId);
      const [settings, cards] = await Promise.all([
        settingsOf(this.db, environmentId),
        usableCards(this.db, environmentId, [...new Set(mine.map((row) => row.customer_id))]),
      ]);
      for (const row of mine) {
        const card = cardOf(cards.find((c) => c.customer_id === row.customer_id));
        const first = this.notRecorded(row, plannedReminders(subjectOf(row), card, daysOf(settings)), recorded).find((r) => r.at.getTime() <= by.getTime());
        if (first) due.set(row.id, first);
      }
    }
    return due;
  }

  /**
   * Records the reminder as fallen due at `at` (the subscription's clock): its facts, and the job
   * that writes its email, in one transaction; nothing when it is recorded already (then false).
   */
  async record(row: SubscriptionRow, reminder: PlannedReminder, at: Date): Promise<boolean> {
    const [facts, environment] = await Promise.all([this.factsOf(row, reminder), environmentById(this.db, row.environment_id)]);
    if (!environment) throw new Error(`environment ${row.environment_id} does not exist`);
    return inTransaction(this.db, async (tx) => {
      const id = await insertReminder(tx, {
        id: newId(),
        organization_id: environment.organization_id,
        environment_id: row.environment_id,
        subscription_id: row.id,
        kind: reminder.kind,
        occasion: reminder.occasion,
        due_at: at,
        facts,
        created_at: this.clock.now(),
      });
      if (id) await enqueueJob(tx, { name: COMPOSE_MAIL_JOB, payload: { reminderId: id }, key: `reminder:${id}` });
      return id !== undefined;
    });
  }

  /** The real-time sweep: every reminder due now of subscriptions whose customers keep real time. Returns how many were recorded. */
  async sweep(limit = SWEEP_BATCH): Promise<number> {
    const now = this.clock.now();
    const rows = await reminderCandidates(this.db, now, limit, {
      trialEndingDays: REMINDER_DAYS.trialEndingDays.default,
      upcomingRenewalDays: REMINDER_DAYS.upcomingRenewalDays.default,
      cardExpiringDays: REMINDER_DAYS.cardExpiringDays.default,
      yearly: YEARLY_OR_LONGER,
    });
    if (rows.length === 0) return 0;
    const recorded = await this.recordedOf(rows);
    const settings = new Map<string, SettingsRow>();
    let count = 0;
    for (const row of rows) {
      if (!settings.has(row.environment_id)) settings.set(row.environment_id, await settingsOf(this.db, row.environment_id));
      const card = cardOf({ exp_month: row.card_exp_month, exp_year: row.card_exp_year });
      const planned = plannedReminders(subjectOf(row), card, daysOf(settings.get(row.environment_id)!));
      for (const reminder of this.notRecorded(row, planned, recorded).filter((r) => r.at.getTime() <= now.getTime())) {
        if (await this.record(row, reminder, now)) count++;
      }
    }
    return count;
  }

  private async recordedOf(rows: SubscriptionRow[]): Promise<Set<string>> {
    const recorded = await recordedReminders(this.db, rows.map((row) => row.id));
    return new Set(recorded.map((r) => reminderKey(r.subscription_id, r.kind, r.occasion)));
  }

  private notRecorded(row: SubscriptionRow, planned: PlannedReminder[], recorded: Set<string>): PlannedReminder[] {
    return planned.filter((r) => !recorded.has(reminderKey(row.id, r.kind, r.occasion)));
  }

  private async factsOf(row: SubscriptionRow, reminder: PlannedReminder): Promise<ReminderFacts> {
    const [subject, cards, amount] = await Promise.all([
      reminderSubject(this.db, row.environment_id, row.id),
      usableCards(this.db, row.environment_id, [row.customer_id]),
      reminder.kind === 'card_expiring' ? null : this.amountOf(row),
    ]);
    const card = cards[0];
    return {
      email: subject?.email ?? null,
      productName: subject?.product_name ?? '',
      planName: subject?.plan_name ?? '',
      amountMinor: amount?.amountMinor ?? null,
      currency: amount?.currency ?? null,
      card: card ? { last4: card.last4, expMonth: card.exp_month, expYear: card.exp_year } : null,
    };
  }

  /** What the next charge will be: the upcoming invoice's total; null when there is none to work out. */
  private async amountOf(row: SubscriptionRow): Promise<{ amountMinor: number; currency: string } | null> {
    try {
      const upcoming = await upcomingInvoice(this.db, row.environment_id, row.id);
      return { amountMinor: upcoming.amountTotalUnits, currency: upcoming.currency };
    } catch (error) {
      if (error instanceof DomainError) return null;
      throw error;
    }
  }
}
