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
import { intlLocale, t } from '../i18n/language';
import { ErrorNote, Field, Notice, Section, Select } from '../ui/kit';

const COMMON = ['USD', 'EUR', 'GBP', 'JPY', 'CAD', 'AUD', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'INR', 'BRL', 'MXN', 'SGD', 'NZD'];

/** Every currency the browser knows, by its name. */
function currencyOptions(): Array<[string, string]> {
  const supported = (Intl as { supportedValuesOf?(key: string): string[] }).supportedValuesOf;
  const codes = supported ? supported('currency') : COMMON;
  const names = new Intl.DisplayNames([intlLocale()], { type: 'currency' });
  return codes.map((code): [string, string] => [code, `${names.of(code) ?? code} (${code})`]).sort((a, b) => a[1].localeCompare(b[1], intlLocale()));
}

/** Where a rate comes from, in words: "set by you on 1 Nov 2026", "derived from 3 plans' prices". */
export function rateOrigin(rate: CurrencyConversion, me: string | undefined): string {
  switch (rate.source) {
    case 'seller':
      return t('reporting.setBy', { who: rate.setBy === me ? t('reporting.you') : (rate.setBy ?? ''), day: day(rate.setOn) });
    case 'plans':
      return t('reporting.derived', { plans: rate.plans ?? 0 });
    case 'reporting':
      return t('reporting.itself');
    default:
      return t('reporting.noRate');
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
              ? t('reporting.already', { amount, currency: to })
              : rate.rate === null
                ? t('reporting.leftOut', { amount, origin: rateOrigin(rate, me) })
                : t('reporting.convertedAt', { amount, rate: rate.rate, currency: to, origin: rateOrigin(rate, me) });
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
  const now = rate.rate === null ? t('reporting.notNow') : t('reporting.now', { rate: rate.rate, origin: rateOrigin(rate, session?.user.email) });
  return (
    <Field
      label={t('reporting.rateLabel', { from: rate.currency, to })}
      hint={`${now} ${t('reporting.leaveEmpty')}`}
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
    <Section title={t('reporting.title')}>
      <ErrorNote error={settings.error} />
      <p>{t('reporting.about')}</p>
      {saved ? (
        <form className="reporting-form" aria-label={t('reporting.form')} onSubmit={submit}>
          <Select label={t('reporting.title')} value={chosen} disabled={!canWrite} options={[['', t('reporting.none')], ...currencyOptions()]} onChange={(e) => setCurrency(e.target.value)} />
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
          {chosen && chosen !== saved.reportingCurrency ? <p className="hint">{t('reporting.saveToSet', { currency: chosen })}</p> : null}
          {canWrite ? (
            <button type="submit" disabled={save.busy}>
              {t('reporting.save')}
            </button>
          ) : null}
          <ErrorNote error={save.error} />
          {save.result && !save.busy && !save.error ? <Notice>{t('reporting.saved')}</Notice> : null}
        </form>
      ) : null}
    </Section>
  );
}
