/** What the classifiers of events (kinds.ts) are given and answer. */
import type { Db } from '../../db/connect.js';
import type { DunningSchedule } from '../billing/renewal.compute.js';
import type { EmailFormat } from './emails/format.js';
import type { EmailSeller } from './emails/layout.js';
import { totalOf } from './event-object.js';
import type { EventMessage } from './outbox.js';

export type Rendered = Pick<EventMessage, 'subject' | 'text' | 'html' | 'attachments'>;

export interface KindInput {
  db: Db;
  scope: { organizationId: string; environmentId: string; environment: 'sandbox' | 'production'; baseUrl: string; apiBase: string };
  object: Record<string, unknown>;
  /** The event's previous_attributes ({} without). */
  previous: Record<string, unknown>;
  seller: () => Promise<EmailSeller>;
  /** Amounts and dates as the seller's buyers read them. */
  format: () => Promise<EmailFormat>;
  /** The dunning schedule the billing engine retries by: which retry is the last. */
  dunning: DunningSchedule;
}

/** What an event becomes: its kind of email, and how the email is rendered (null: after all, none). */
export interface Classified {
  kind: string;
  render(): Promise<Rendered | null>;
}

/** The object's total as buyers read it. */
export async function amountOf(input: KindInput): Promise<string> {
  const total = totalOf(input.object);
  return total ? (await input.format()).money(total.minor, total.currency) : '';
}

