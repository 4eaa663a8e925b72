/**
 * The reporting currency (issue 30, decision 0102): choosing it and setting exchange rates in
 * Settings, and the conversion stated in words beneath the Analytics page's converted figures.
 */
import { useState, type FormEvent } from 'react';
import type { AnalyticsSettings, AnalyticsSettingsUpdate, CurrencyConversion, ReportingConversion } from '@billow/contract';
import { api } from '../api';
import { useAction, useResource } from '../data';
import { day, money } from '../format';
import { useSession } from '../session';
import { ErrorNote, Field, Notice, Section, Select } from '../ui/kit';

const NAMES = new Intl.DisplayNames(undefined, { type: 'currency' });
const COMMON = ['USD', 'EUR', 'GBP', 'JPY', 'CAD', 'AUD', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'INR', 'BRL', 'MXN', 'SGD', 'NZD'];

/** Every currency the browser knows, by its name. */
function currencyOptions(): Array<[string, string]> {
  const supported = (Intl as { supportedValuesOf?(key: string): string[] }).supportedValuesOf;
  const codes = supported ? supported('currency') : COMMON;
  return codes.map((code): [string, string] => [code, `${NAMES.of(code) ?? code} (${code})`]).sort((a, b) => a[1].localeCompare(b[1]));
}

/** Where a rate comes from, in words: "set by you on 1 Nov 2026", "derived from 3 plans' prices". */
export function rateOrigin(rate: CurrencyConversion, me: string | undefined): string {
  switch (rate.source) {
    case 'seller':
      return `set by ${rate.setBy === me ? 'you' : rate.setBy} on ${day(rate.setOn)}`;
    case 'plans':
      return `derived from the prices of ${rate.plans === 1 ? '1 plan' : `${rate.plans} plans`} sold in both currencies`;
    case 'reporting':
      return 'the reporting currency itself';
    default:
      return 'no rate set, and no plan is priced in both currencies';
  }
}

/**
 * How a converted figure was made, one line per currency: "€500.00 converted at 1.08 USD, set
 * by you on 1 Nov 2026"; `amounts` gives each currency's own figure, when there is one.
 */
export function ConversionNote({ conversion, amounts, what }: { conversion: ReportingConversion; amounts: Map<string, number>; what: string }) {
  const { session } = useSession();
  const me = session?.user.email;
  const to = conversion.currency;
  return (
    <div className="hint conversion">
      <p>{what}</p>
      <ul>
        {conversion.rates.map((rate) => {
          const amount = amounts.has(rate.currency) ? money(amounts.get(rate.currency), rate.currency) : rate.currency;
          const line =
            rate.source === 'reporting'
              ? `${amount}, already in ${to}`
              : rate.rate === null
                ? `${amount} not converted, and left out: ${rateOrigin(rate, me)}`
                : `${amount} converted at ${rate.rate} ${to}, ${rateOrigin(rate, me)}`;
          return <li key={rate.currency}>{line}</li>;
        })}
      </ul>
    </div>
  );
}

/** What the form sends: the currency and, when it is the one saved, the rates typed (an empty field: no rate set). */
function updateOf(saved: AnalyticsSettings, currency: string, drafts: Record<string, string>): AnalyticsSettingsUpdate {
  if (currency !== saved.reportingCurrency) return { reportingCurrency: currency || null };
  const others = saved.conversion?.rates.filter((r) => r.source !== 'reporting') ?? [];
  const rates = others
    .map((r) => ({ currency: r.currency, rate: (drafts[r.currency] ?? saved.rates.find((s) => s.currency === r.currency)?.rate ?? '').trim() }))
    .filter((r) => r.rate !== '');
  return { reportingCurrency: currency || null, rates };
}

function RateField({ rate, to, value, disabled, onChange }: { rate: CurrencyConversion; to: string; value: string; disabled: boolean; onChange(value: string): void }) {
  const { session } = useSession();
  const now = rate.rate === null ? 'Not converted now: no rate set, and no plan is priced in both currencies.' : `Now ${rate.rate}, ${rateOrigin(rate, session?.user.email)}.`;
  return (
    <Field
      label={`1 ${rate.currency} in ${to}`}
      hint={`${now} Leave it empty to use the plans' prices.`}
      inputMode="decimal"
      value={value}
      disabled={disabled}
      placeholder={rate.source === 'plans' && rate.rate ? rate.rate : ''}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** Settings: the reporting currency and the rates into it. */
export function ReportingSettings({ canWrite }: { canWrite: boolean }) {
  const settings = useResource(() => api<AnalyticsSettings>('GET', '/analytics/settings/'), []);
  const save = useAction((body: AnalyticsSettingsUpdate) => api<AnalyticsSettings>('PUT', '/analytics/settings/', { body }));
  const [currency, setCurrency] = useState<string | null>(null);
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const saved = save.result ?? settings.data;
  const chosen = currency ?? saved?.reportingCurrency ?? '';
  const others = saved?.conversion?.rates.filter((r) => r.source !== 'reporting') ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!saved) return;
    void save.perform(updateOf(saved, chosen, drafts)).then((result) => {
      if (result === undefined) return;
      setCurrency(null);
      setDrafts({});
    });
  };
  return (
    <Section title="Reporting currency">
      <ErrorNote error={settings.error} />
      <p>Analytics can show every figure converted into one currency, with the rate of each currency stated beneath it.</p>
      {saved ? (
        <form className="reporting-form" aria-label="Reporting currency and exchange rates" onSubmit={submit}>
          <Select label="Reporting currency" value={chosen} disabled={!canWrite} options={[['', 'None: each currency apart'], ...currencyOptions()]} onChange={(e) => setCurrency(e.target.value)} />
          {chosen && chosen === saved.reportingCurrency
            ? others.map((rate) => (
                <RateField
                  key={rate.currency}
                  rate={rate}
                  to={chosen}
                  disabled={!canWrite}
                  value={drafts[rate.currency] ?? saved.rates.find((r) => r.currency === rate.currency)?.rate ?? ''}
                  onChange={(value) => setDrafts({ ...drafts, [rate.currency]: value })}
                />
              ))
            : null}
          {chosen && chosen !== saved.reportingCurrency ? <p className="hint">Save to set the rates into {chosen}.</p> : null}
          {canWrite ? (
            <button type="submit" disabled={save.busy}>
              Save reporting currency
            </button>
          ) : null}
          <ErrorNote error={save.error} />
          {save.result && !save.busy && !save.error ? <Notice>Saved.</Notice> : null}
        </form>
      ) : null}
    </Section>
  );
}
