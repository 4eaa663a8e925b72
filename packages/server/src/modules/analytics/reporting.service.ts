import type { AnalyticsSettings, AnalyticsSettingsUpdate } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction, type Executor } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { currencyDigits, isCurrency } from '../../lib/money.js';
import { recordAudit, type AuditableScope } from '../audit/queries.js';
import { publishedPaidPrices } from '../catalog/queries.js';
import { conversionOf, decimalText, derivedRate, parseRate, type Conversion, type Decimal } from './conversion.compute.js';
import { notACurrency, notARate, rateOfReportingCurrency, ratesWithoutCurrency, rateTwice } from './errors.js';
import { conversionView, pricePairs } from './reporting.compute.js';
import * as repo from './repo/reporting.js';

export type ReportingScope = AuditableScope & { environmentId: string };

/** An update's values checked: the currency a known ISO code, each rate a positive decimal of bounded precision, once each. */
function checkedUpdate(input: AnalyticsSettingsUpdate): { currency: string | null; rates: Map<string, Decimal> | null } {
  const currency = input.reportingCurrency === null ? null : input.reportingCurrency.trim().toUpperCase();
  if (currency !== null && !isCurrency(currency)) throw notACurrency('reportingCurrency', input.reportingCurrency ?? '');
  if (currency === null && input.rates && input.rates.length > 0) throw ratesWithoutCurrency();
  if (!input.rates) return { currency, rates: null };
  const rates = new Map<string, Decimal>();
  for (const entry of input.rates) {
    const from = entry.currency.trim().toUpperCase();
    if (!isCurrency(from)) throw notACurrency('rates[].currency', entry.currency);
    if (from === currency) throw rateOfReportingCurrency(from);
    if (rates.has(from)) throw rateTwice(from);
    const rate = parseRate(entry.rate);
    if (!rate) throw notARate(from, entry.rate);
    rates.set(from, rate);
  }
  return { currency, rates };
}

/** The settings as audited: the currency and each rate, without dates. */
const audited = (settings: AnalyticsSettings) => ({ reportingCurrency: settings.reportingCurrency, rates: Object.fromEntries(settings.rates.map((r) => [r.currency, r.rate])) });

/**
 * The reporting currency and its rates (decision 0102): the ones the seller sets, through
 * GET/PUT /analytics/settings/, and the conversion of a series, which falls back on rates
 * derived from the plans' own prices.
 */
export class ReportingService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async settings(scope: { environmentId: string }, db: Executor = this.db): Promise<AnalyticsSettings> {
    const row = await repo.findSettings(db, scope.environmentId);
    const to = row?.reporting_currency ?? null;
    if (!to) return { reportingCurrency: null, rates: [], conversion: null, updatedOn: row?.modified_at.toISOString() ?? null };
    const [rates, mrr, prices] = await Promise.all([repo.ratesInto(db, scope.environmentId, to), repo.mrrCurrencies(db, scope.environmentId), publishedPaidPrices(db, scope.environmentId)]);
    const currencies = [...mrr, ...prices.map((p) => p.price.currency), ...rates.map((r) => r.from_currency)];
    const conversion = await this.conversion(db, scope.environmentId, to, currencies);
    return {
      reportingCurrency: to,
      rates: rates.map((r) => ({ currency: r.from_currency, rate: decimalText(parseRate(r.rate)!), setOn: r.set_at.toISOString(), setBy: r.set_by })),
      conversion: conversionView(conversion),
      updatedOn: row!.modified_at.toISOString(),
    };
  }

  /** Sets the reporting currency and replaces the rates into it, in one transaction, audited with before and after. */
  async update(scope: ReportingScope, input: AnalyticsSettingsUpdate): Promise<AnalyticsSettings> {
    const { currency, rates } = checkedUpdate(input);
    const now = this.clock.now();
    const setBy = scope.auditActor?.label ?? 'operator';
    return inTransaction(this.db, async (tx) => {
      await repo.lockSettings(tx, scope.environmentId);
      const before = await this.settings(scope, tx);
      if (currency && rates) {
        const kept = new Map((await repo.ratesInto(tx, scope.environmentId, currency)).map((r) => [r.from_currency, r]));
        const rows = [...rates].map(([from, rate]) => {
          const text = decimalText(rate);
          const old = kept.get(from);
          // A rate sent again unchanged keeps when and by whom it was set.
          return old && decimalText(parseRate(old.rate)!) === text ? old : { from_currency: from, rate: text, set_at: now, set_by: setBy };
        });
        await repo.replaceRates(tx, scope.environmentId, currency, rows);
      }
      await repo.saveSettings(tx, scope.environmentId, currency, now);
      const after = await this.settings(scope, tx);
      const change = { action: 'analytics_settings.updated' as const, resourceType: 'analytics_settings', resourceId: scope.environmentId, before: audited(before), after: audited(after) };
      await recordAudit(tx, scope, change, now);
      return after;
    });
  }

  /** How each of the currencies converts into `to`: the seller's rate, else one derived from the plans' prices, else none. */
  async conversion(db: Executor, environmentId: string, to: string, currencies: readonly string[]): Promise<Conversion> {
    if (!isCurrency(to)) throw notACurrency('reporting_currency', to);
    const [rates, prices] = await Promise.all([repo.ratesInto(db, environmentId, to), publishedPaidPrices(db, environmentId)]);
    const set = new Map(rates.map((r) => [r.from_currency, { rate: parseRate(r.rate)!, setAt: r.set_at, setBy: r.set_by }]));
    const derived = new Map<string, { rate: Decimal; plans: number }>();
    for (const from of new Set(currencies)) {
      if (from === to || set.has(from)) continue;
      const found = derivedRate(pricePairs(prices, from, to), currencyDigits(from), currencyDigits(to));
      if (found) derived.set(from, found);
    }
    return conversionOf(to, currencies, { set, derived }, currencyDigits);
  }
}
