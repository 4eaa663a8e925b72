import type { EmailSettings, EmailSettingsUpdate } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import type { Executor } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { findSettings, saveSettings, type SwitchColumn, type Switches } from './repo.js';

/** The wire name of each switch and its column (the column is also the email's kind). */
const WIRE: Record<keyof EmailSettings, SwitchColumn> = {
  receipts: 'receipt',
  refunds: 'refund',
  paymentFailed: 'payment_failed',
  subscriptionEnded: 'subscription_cancelled',
};
const ALL_ON: Switches = { receipt: true, refund: true, payment_failed: true, subscription_cancelled: true };

const view = (switches: Switches): EmailSettings => ({
  receipts: switches.receipt,
  refunds: switches.refund,
  paymentFailed: switches.payment_failed,
  subscriptionEnded: switches.subscription_cancelled,
});

/** Whether an environment sends emails of a kind (decision 0067): on unless switched off. */
export async function kindEnabled(db: Executor, environmentId: string, kind: string): Promise<boolean> {
  const switches = (await findSettings(db, environmentId)) ?? ALL_ON;
  return kind in switches ? switches[kind as SwitchColumn] : true;
}

/** GET/PATCH /email-settings/: which emails buyers get, per environment. */
export class EmailSettingsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async get(scope: { environmentId: string }): Promise<EmailSettings> {
    return view((await findSettings(this.db, scope.environmentId)) ?? ALL_ON);
  }

  async update(scope: { environmentId: string }, update: EmailSettingsUpdate): Promise<EmailSettings> {
    const changes: Partial<Switches> = {};
    for (const [wire, column] of Object.entries(WIRE) as Array<[keyof EmailSettings, SwitchColumn]>) {
      const value = update[wire];
      if (value !== undefined) changes[column] = value;
    }
    return view(await saveSettings(this.db, scope.environmentId, changes, this.clock.now()));
  }
}
