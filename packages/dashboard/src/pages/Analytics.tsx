/**
 * Analytics (issue 30, decisions 0097 and 0098): this month's MRR, ARR, paying customers,
 * customer churn and net revenue retention against last month's; the MRR movements by month,
 * week or day as a chart with the same figures in a table; any figure opens the customers behind it.
 */
import { useState } from 'react';
import type { AnalyticsSettings, MrrMovementKind, MrrPeriod, MrrSeries } from '@billow/contract';
import { api, download } from '../api';
import { useResource } from '../data';
import { count, money, when } from '../format';
import { t } from '../i18n/language';
import { DownloadButton, ErrorNote, Loading, PageTitle, Section, Select, Table } from '../ui/kit';
import { Cards, type Card } from './AnalyticsCards';
import { CashSection } from './AnalyticsCash';
import { AnalyticsDrillDown, type DrillDown } from './AnalyticsDrillDown';
import { MovementsChart } from './AnalyticsChart';
import { ConversionNote } from './AnalyticsReporting';
import { SegmentPicker, segmentQuery, type Segment } from './AnalyticsSegment';
import { SubscribersAndTrials } from './AnalyticsTrials';
import { INTERVALS, KINDS, kindLabel, lastDayOf, periodName, rate, type Interval } from './analytics-words';


/** The Currency choice that shows every currency converted into the reporting currency. */
const CONVERTED = '*';

async function loadSeries(interval: Interval, segment: Segment): Promise<{ months: MrrSeries; chart: MrrSeries; reporting: string | null }> {
  const reporting = (await api<AnalyticsSettings>('GET', '/analytics/settings/')).reportingCurrency;
  const convert = { ...(reporting ? { reporting_currency: reporting } : {}), ...segmentQuery(segment) };
  const months = api<MrrSeries>('GET', '/analytics/mrr/', { query: { interval: 'month', ...convert } });
  const start = INTERVALS.find((i) => i.value === interval)?.start();
  const chart = interval === 'month' ? months : api<MrrSeries>('GET', '/analytics/mrr/', { query: { interval, start, ...convert } });
  return { months: await months, chart: await chart, reporting };
}

/** A series' periods in one currency, or converted into the reporting currency. */
function periodsOf(series: MrrSeries | undefined, currency: string | undefined): MrrPeriod[] {
  if (currency === CONVERTED) return series?.reporting?.periods ?? [];
  return series?.currencies.find((c) => c.currency === currency)?.periods ?? [];
}

/** Each currency's MRR at the end of the last period: what the converted MRR is made of. */
function lastMrrOf(series: MrrSeries): Map<string, number> {
  return new Map(series.currencies.map((c) => [c.currency, c.periods.at(-1)?.mrrEndUnits ?? 0]));
}

const CARDS: ReadonlyArray<Card<MrrPeriod>> = [
  { label: 'analytics.mrr', figure: (p, c) => money(p.mrrEndUnits, c), trend: (p) => p.mrrEndUnits },
  { label: 'analytics.arr', figure: (p, c) => money(p.arrEndUnits, c), trend: (p) => p.arrEndUnits },
  { label: 'analytics.payingCustomers', figure: (p) => count(p.customers.end), trend: (p) => p.customers.end },
  { label: 'analytics.customerChurn', figure: (p) => rate(p.customerChurnRateBp) },
  { label: 'analytics.nrr', figure: (p) => rate(p.netRevenueRetentionBp) },
];

function Legend({ onPick }: { onPick(kind: MrrMovementKind): void }) {
  return (
    <ul className="legend">
      {KINDS.map(({ kind, label }) => (
        <li key={kind}>
          <button type="button" className="link" onClick={() => onPick(kind)}>
            <span className={`swatch mv-${kind}`} aria-hidden="true" />
            {label}
            <span className="visually-hidden">{t('analytics.behindRange')}</span>
          </button>
        </li>
      ))}
      <li>
        <span className="swatch swatch-line" aria-hidden="true" />
        {t('analytics.mrrLine')}
      </li>
    </ul>
  );
}

function FiguresTable({ periods, interval, currency, onPick }: { periods: MrrPeriod[]; interval: Interval; currency: string; onPick(period: MrrPeriod, kind: MrrMovementKind): void }) {
  return (
    <Table
      caption={t('analytics.movements')}
      rows={[...periods].reverse()}
      rowKey={(p) => p.period}
      empty={t('analytics.nothingYet')}
      columns={[
        { title: t('common.period'), nowrap: true, cell: (p) => periodName(p, interval) },
        ...KINDS.map(({ kind, label, units }) => ({
          title: label,
          numeric: true,
          nowrap: true,
          cell: (p: MrrPeriod) =>
            units(p) === 0 ? (
              money(0, currency)
            ) : (
              <button type="button" className="link" onClick={() => onPick(p, kind)}>
                {money(units(p), currency)}
                <span className="visually-hidden">
                  {' '}
                  {t('analytics.showCustomers', { kind: label.toLowerCase(), period: periodName(p, interval) })}
                </span>
              </button>
            ),
        })),
        { title: t('analytics.mrrEnd'), numeric: true, nowrap: true, cell: (p) => money(p.mrrEndUnits, currency) },
        { title: t('analytics.payingCustomers'), numeric: true, cell: (p) => count(p.customers.end) },
      ]}
    />
  );
}

export function Analytics() {
  const [interval, setSpan] = useState<Interval>('month');
  const [chosen, setCurrency] = useState<string | null>(null);
  const [drill, setDrill] = useState<DrillDown | null>(null);
  const [segment, setSegment] = useState<Segment>('');
  const series = useResource(() => loadSeries(interval, segment), [interval, segment]);
  const currencies = series.data?.months.currencies.map((c) => c.currency) ?? [];
  const reporting = currencies.length > 0 ? series.data?.reporting : null;
  const choices = [...currencies, ...(reporting ? [CONVERTED] : [])];
  const currency = chosen && choices.includes(chosen) ? chosen : reporting && currencies.length > 1 ? CONVERTED : currencies[0];
  const converted = currency === CONVERTED;
  // The currency amounts are shown in: the reporting one when converted.
  const shown = converted ? reporting! : currency;
  const months = periodsOf(series.data?.months, currency);
  const chart = periodsOf(series.data?.chart, currency);
  const drillOf = (kind: MrrMovementKind, start: string, end: string, when: string) =>
    currency && setDrill({ kind, currency: converted ? undefined : currency, only: segmentQuery(segment), start, end, title: t('analytics.drillTitle', { kind: kindLabel(kind), when, converted: converted ? 'true' : 'false' }) });
  const pick = (period: MrrPeriod, kind: MrrMovementKind) => drillOf(kind, period.start, lastDayOf(period), periodName(period, interval));
  const pickKind = (kind: MrrMovementKind) => chart.length > 0 && drillOf(kind, chart[0]!.start, lastDayOf(chart.at(-1)!), t('analytics.wholeRange'));
  return (
    <>
      <PageTitle>{t('analytics.title')}</PageTitle>
      <div className="row-form">
        <SegmentPicker
          value={segment}
          onChange={(next) => {
            setSegment(next);
            setDrill(null);
          }}
        />
      </div>
      <Loading loading={series.loading && !series.data} />
      <ErrorNote error={series.error} />
      {series.data && !currency ? (
        <p className="empty">{segment ? t('analytics.noneOfSegment') : t('analytics.noneYet')}</p>
      ) : null}
      {currency && shown ? <Cards cards={CARDS} periods={months} currency={shown} /> : null}
      {converted && series.data?.months.reporting ? (
        <ConversionNote conversion={series.data.months.reporting.conversion} amounts={lastMrrOf(series.data.months)} what={t('analytics.mrrFrom', { currency: shown ?? '' })} />
      ) : null}
      {currency && shown ? (
        <Section
          title={t('analytics.movements')}
          actions={
            <DownloadButton
              label={t('analytics.downloadCsv')}
              hidden={t('analytics.ofMovements', { currency: shown })}
              run={() => {
                const chartSeries = series.data!.chart;
                const which = converted ? { reporting_currency: shown } : { currency };
                return download('/analytics/mrr/', { interval, ...which, ...segmentQuery(segment), start: chartSeries.start, end: lastDayOf(chartSeries), format: 'csv' }, `mrr-${converted ? 'all' : currency}-${interval}-${chartSeries.start}.csv`);
              }}
            />
          }
        >
          <div className="row-form">
            <fieldset className="choice">
              <legend>{t('analytics.interval')}</legend>
              {INTERVALS.map((i) => (
                <label key={i.value}>
                  <input type="radio" name="interval" value={i.value} checked={interval === i.value} onChange={() => setSpan(i.value)} />
                  {i.label}
                </label>
              ))}
            </fieldset>
            {choices.length > 1 ? (
              <Select
                label={t('plan.currency')}
                value={currency}
                options={choices.map((c) => [c, c === CONVERTED ? t('analytics.allConverted', { currency: reporting ?? '' }) : c])}
                onChange={(e) => setCurrency(e.target.value)}
              />
            ) : null}
          </div>
          <Legend onPick={pickKind} />
          <MovementsChart periods={chart} interval={interval} currency={shown} onPick={pick} />
          <FiguresTable periods={chart} interval={interval} currency={shown} onPick={pick} />
          <p className="hint">
            {t('analytics.daysIn', { timeZone: series.data?.chart.timeZone ?? '', currency: shown, converted: converted ? 'true' : 'false', until: when(series.data?.chart.completeUntil) })}
          </p>
          {converted && series.data?.chart.reporting ? (
            <ConversionNote conversion={series.data.chart.reporting.conversion} amounts={new Map()} what={t('analytics.everyAmount', { currency: shown })} />
          ) : null}
        </Section>
      ) : null}
      <SubscribersAndTrials segment={segment} />
      <CashSection interval={interval} currency={converted ? null : (currency ?? null)} reporting={converted ? (reporting ?? null) : null} segment={segment} />
      {drill ? <AnalyticsDrillDown key={`${drill.kind} ${drill.start} ${drill.end} ${drill.currency} ${segment}`} drill={drill} onClose={() => setDrill(null)} /> : null}
    </>
  );
}
