/**
 * What an invoice records when it is issued (decision 0064), beyond its amounts: each line
 * with the period it is for, and the buyer as they were then. Pure.
 */
import type { QuoteLine } from '../billing/types.js';

export interface ServicePeriod {
  start: Date;
  end: Date;
}

/** The periods an invoice's lines are for, by the kind of line; a kind without one prints none. */
export interface LinePeriods {
  /** The plan and the features paid in advance: the period that begins. */
  service?: ServicePeriod | null;
  /** Usage billed in arrears: the period it was measured in. */
  usage?: ServicePeriod | null;
  /** The unused time of the old plan given back by a change. */
  unused?: ServicePeriod | null;
  /** The new plan for the rest of the period a change cuts into. */
  remaining?: ServicePeriod | null;
}

/** A line as the invoice keeps it: the quote's line, with its period as ISO timestamps. */
export type IssuedLine = QuoteLine & { periodStart?: string; periodEnd?: string };

function periodOf(line: QuoteLine, periods: LinePeriods): ServicePeriod | null {
  switch (line.kind) {
    case 'plan':
    case 'feature':
      return periods.service ?? null;
    case 'usage':
      return periods.usage ?? null;
    case 'unused':
      return periods.unused ?? null;
    case 'remaining':
      return periods.remaining ?? periods.service ?? null;
    default:
      return null;
  }
}

export function issuedLines(lines: QuoteLine[], periods: LinePeriods): IssuedLine[] {
  return lines.map((line) => {
    const period = periodOf(line, periods);
    return period ? { ...line, periodStart: period.start.toISOString(), periodEnd: period.end.toISOString() } : line;
  });
}

/** The buyer as the invoice names them; `taxId` stays null until customers carry tax ids of their own. */
export interface BuyerSnapshot {
  customerId: string;
  name: string | null;
  email: string | null;
  billingAddress: Record<string, unknown> | null;
  taxId: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

export function buyerSnapshot(customer: {
  customer_id: string;
  name: string | null;
  email: string | null;
  billing_address: Record<string, unknown> | null;
  details: Record<string, unknown> | null;
}, taxId: string | null): BuyerSnapshot {
  return {
    customerId: customer.customer_id,
    name: text(customer.name),
    email: text(customer.email),
    billingAddress: customer.billing_address,
    // The tax id the invoice's tax decision relied on (tax.compute.ts).
    taxId: text(taxId),
  };
}
