/**
 * An invoice line in words (decision 0064): "Pro — monthly, 27 Nov – 26 Dec 2026",
 * "API calls — 7,707 × 0.01, 27 Oct – 26 Nov 2026", "Unused time on Pro, 3 – 26 Dec 2026".
 * Lines issued before their kind was recorded keep the description they were issued with.
 */
import type { QuoteLineKind } from '../billing/types.js';
import type { DocumentFormat } from './pdf/format.js';
import type { Labels } from './pdf/labels.js';

/** A stored line, read leniently (older invoices lack the fields of decision 0064). */
export interface StoredLine {
  description: string;
  quantity: number;
  amountMinor: number;
  kind: QuoteLineKind | null;
  name: string | null;
  chargePeriod: string | null;
  unitMinor: number | null;
  period: { start: Date; end: Date } | null;
}

const KINDS: readonly QuoteLineKind[] = ['plan', 'feature', 'usage', 'unused', 'remaining'];
const integer = (value: unknown): number | null => (typeof value === 'number' && Number.isSafeInteger(value) ? value : null);
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const date = (value: unknown): Date | null => {
  const at = typeof value === 'string' ? new Date(value) : null;
  return at && !Number.isNaN(at.getTime()) ? at : null;
};

export function storedLine(raw: unknown): StoredLine {
  const line = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const kind = KINDS.find((k) => k === line.kind) ?? null;
  const start = date(line.periodStart);
  const end = date(line.periodEnd);
  return {
    description: text(line.description) ?? '',
    quantity: integer(line.quantity) ?? 1,
    amountMinor: integer(line.amountMinor) ?? integer(line.amount_minor) ?? integer(line.amountUnits) ?? 0,
    kind,
    name: text(line.name),
    chargePeriod: text(line.chargePeriod),
    unitMinor: integer(line.unitMinor),
    period: start && end ? { start, end } : null,
  };
}

/** The price of one unit: as recorded, else the amount when it divides evenly; null for graduated prices. */
export function unitPrice(line: StoredLine): number | null {
  if (line.unitMinor !== null) return line.unitMinor;
  if (line.quantity > 0 && line.amountMinor % line.quantity === 0) return line.amountMinor / line.quantity;
  return null;
}

function what(line: StoredLine, name: string, f: DocumentFormat, labels: Labels, currency: string): string {
  switch (line.kind) {
    case 'plan': {
      const period = line.chargePeriod ?? '';
      if (period === 'ONE_TIME') return labels.line.period(name, labels.oneOff);
      return labels.line.period(name, labels.periods[period] ?? labels.periods.MONTHLY!);
    }
    case 'feature':
    case 'usage': {
      const unit = unitPrice(line);
      const quantity = f.quantity(line.quantity);
      return unit === null ? labels.line.quantity(name, quantity) : labels.line.unitPrice(name, quantity, f.decimal(unit, currency));
    }
    case 'unused':
      return labels.unusedTime(name);
    case 'remaining':
      return labels.remainingTime(name);
    default:
      return line.description;
  }
}

export function lineWords(line: StoredLine, f: DocumentFormat, labels: Labels, currency: string): string {
  const words = what(line, line.name ?? line.description, f, labels, currency) || '—';
  return line.period ? labels.line.dated(words, f.period(line.period.start, line.period.end)) : words;
}
