/** A credit note's lines as stored, and their totals per tax rate: integer minor units, nothing rounded here. */
export interface CreditLine {
  description: string;
  quantity: number;
  /** Credited before tax. */
  amountMinor: number;
  taxRateBp: number;
  taxMinor: number;
}

export interface TaxTotal {
  taxRateBp: number;
  taxableMinor: number;
  taxMinor: number;
}

/** The lines summed per tax rate, in the order the rates first appear. */
export function taxTotals(lines: CreditLine[]): TaxTotal[] {
  const byRate = new Map<number, TaxTotal>();
  for (const line of lines) {
    const total = byRate.get(line.taxRateBp) ?? { taxRateBp: line.taxRateBp, taxableMinor: 0, taxMinor: 0 };
    total.taxableMinor += line.amountMinor;
    total.taxMinor += line.taxMinor;
    byRate.set(line.taxRateBp, total);
  }
  return [...byRate.values()];
}

const integer = (value: unknown): number => (typeof value === 'number' && Number.isSafeInteger(value) ? value : 0);

/** Stored lines read back (jsonb: whatever is there, read leniently). */
export function storedLines(stored: unknown[]): CreditLine[] {
  return stored.map((raw) => {
    const line = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    return {
      description: typeof line.description === 'string' ? line.description : '',
      quantity: integer(line.quantity) || 1,
      amountMinor: integer(line.amountMinor),
      taxRateBp: integer(line.taxRateBp),
      taxMinor: integer(line.taxMinor),
    };
  });
}
