/**
 * Analytics as CSV (issue 30, item 2), pure: a header row, then one row per movement or per
 * currency and period; amounts in minor units, rates in basis points, an empty cell for a
 * rate without a denominator. Text a spreadsheet would run as a formula is quoted with a
 * leading apostrophe.
 */
import type { CashPeriod, CashSeries, MrrMovementItem, MrrPeriod, MrrSeries } from '@billow/contract';

type Cell = string | number | null;

function cellText(cell: Cell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell);
  const text = /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvOf(header: readonly string[], rows: readonly Cell[][]): string {
  return [header, ...rows].map((row) => row.map(cellText).join(',')).join('\r\n') + '\r\n';
}

const MOVEMENT_HEADER = ['day', 'at', 'kind', 'currency', 'amount_units', 'customer_mrr_after_units', 'customer_id', 'customer_name', 'customer_email', 'subscription_id'];

export function movementsCsv(items: readonly MrrMovementItem[]): string {
  return csvOf(
    MOVEMENT_HEADER,
    items.map((m) => [m.day, m.at, m.kind, m.currency, m.amountUnits, m.customerMrrAfterUnits, m.customer.customerId, m.customer.name, m.customer.email, m.subscriptionId]),
  );
}

const SERIES_HEADER = [
  'currency', 'period', 'start', 'end', 'mrr_start_units', 'mrr_end_units', 'arr_end_units',
  'new_units', 'expansion_units', 'reactivation_units', 'contraction_units', 'churned_units',
  'customers_start', 'customers_end', 'customers_new', 'customers_reactivated', 'customers_churned',
  'customer_churn_rate_bp', 'revenue_churn_rate_bp', 'net_revenue_retention_bp', 'arpu_units', 'lifetime_value_units',
];

const periodRow = (currency: string, p: MrrPeriod): Cell[] => [
  currency, p.period, p.start, p.end, p.mrrStartUnits, p.mrrEndUnits, p.arrEndUnits,
  p.movements.newUnits, p.movements.expansionUnits, p.movements.reactivationUnits, p.movements.contractionUnits, p.movements.churnedUnits,
  p.customers.start, p.customers.end, p.customers.new, p.customers.reactivated, p.customers.churned,
  p.customerChurnRateBp, p.revenueChurnRateBp, p.netRevenueRetentionBp, p.arpuUnits, p.lifetimeValueUnits,
];

/**
 * With a reporting currency (decision 0102), rows of the converted figures follow, their currency
 * cell "USD (converted)", and a last column states the conversion on each of them.
 */
export function seriesCsv(series: MrrSeries): string {
  const rows = series.currencies.flatMap(({ currency, periods }) => periods.map((p) => periodRow(currency, p)));
  const reporting = series.reporting;
  if (!reporting) return csvOf(SERIES_HEADER, rows);
  const label = `${reporting.conversion.currency} (converted)`;
  const converted = reporting.periods.map((p) => [...periodRow(label, p), reporting.conversion.statement]);
  return csvOf([...SERIES_HEADER, 'conversion'], [...rows.map((row) => [...row, null]), ...converted]);
}

const CASH_HEADER = [
  'currency', 'period', 'start', 'end', 'collected_count', 'collected_units', 'refunded_count', 'refunded_units', 'net_units',
  'failed_count', 'failed_units', 'recovered_count', 'recovered_units', 'lost_count', 'lost_units', 'recovery_rate_bp',
];

const cashRow = (currency: string, p: CashPeriod) => [
  currency, p.period, p.start, p.end, p.collected.count, p.collected.amountUnits, p.refunded.count, p.refunded.amountUnits, p.netUnits,
  p.failed.count, p.failed.amountUnits, p.recovered.count, p.recovered.amountUnits, p.lost.count, p.lost.amountUnits, p.recoveryRateBp,
];

export function cashCsv(series: CashSeries): string {
  const rows = series.currencies.flatMap(({ currency, periods }) => periods.map((p) => cashRow(currency, p)));
  const reporting = series.reporting;
  if (!reporting) return csvOf(CASH_HEADER, rows);
  const label = `${reporting.conversion.currency} (converted)`;
  const converted = reporting.periods.map((p) => [...cashRow(label, p), reporting.conversion.statement]);
  return csvOf([...CASH_HEADER, 'conversion'], [...rows.map((row) => [...row, null]), ...converted]);
}
