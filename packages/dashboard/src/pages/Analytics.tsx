/**
 * Analytics (issue 30, decisions 0097 and 0098): this month's MRR, ARR, paying customers,
 * customer churn and net revenue retention against last month's; the MRR movements by month,
 * week or day as a chart with the same figures in a table; any figure opens the customers behind it.
 */
import { useState } from 'react';
import type { MrrMovementKind, MrrPeriod, MrrSeries } from '@billow/contract';
import { api, download } from '../api';
import { useResource } from '../data';
import { money, when } from '../format';
import { DownloadButton, ErrorNote, Loading, PageTitle, Section, Select, Table } from '../ui/kit';
import { Cards, type Card } from './AnalyticsCards';
import { CashSection } from './AnalyticsCash';
import { AnalyticsDrillDown, type DrillDown } from './AnalyticsDrillDown';
import { MovementsChart } from './AnalyticsChart';
import { INTERVALS, KINDS, lastDayOf, periodName, rate, type Interval } from './analytics-words';


async function loadSeries(interval: Interval): Promise<{ months: MrrSeries; chart: MrrSeries }> {
  const months = api<MrrSeries>('GET', '/analytics/mrr/', { query: { interval: 'month' } });
  const start = INTERVALS.find((i) => i.value === interval)?.start();
  const chart = interval === 'month' ? months : api<MrrSeries>('GET', '/analytics/mrr/', { query: { interval, start } });
  return { months: await months, chart: await chart };
}

const CARDS: ReadonlyArray<Card<MrrPeriod>> = [
  { label: 'MRR', figure: (p, c) => money(p.mrrEndUnits, c), trend: (p) => p.mrrEndUnits },
  { label: 'ARR', figure: (p, c) => money(p.arrEndUnits, c), trend: (p) => p.arrEndUnits },
  { label: 'Paying customers', figure: (p) => p.customers.end.toLocaleString(), trend: (p) => p.customers.end },
  { label: 'Customer churn', figure: (p) => rate(p.customerChurnRateBp) },
  { label: 'Net revenue retention', figure: (p) => rate(p.netRevenueRetentionBp) },
];

function Legend({ onPick }: { onPick(kind: MrrMovementKind): void }) {
  return (
    <ul className="legend">
      {KINDS.map(({ kind, label }) => (
        <li key={kind}>
          <button type="button" className="link" onClick={() => onPick(kind)}>
            <span className={`swatch mv-${kind}`} aria-hidden="true" />
            {label}
            <span className="visually-hidden">: the customers behind it in the whole range</span>
          </button>
        </li>
      ))}
      <li>
        <span className="swatch swatch-line" aria-hidden="true" />
        MRR at the end of each period
      </li>
    </ul>
  );
}

function FiguresTable({ periods, interval, currency, onPick }: { periods: MrrPeriod[]; interval: Interval; currency: string; onPick(period: MrrPeriod, kind: MrrMovementKind): void }) {
  return (
    <Table
      caption="MRR movements"
      rows={[...periods].reverse()}
      rowKey={(p) => p.period}
      empty="Nothing yet."
      columns={[
        { title: 'Period', nowrap: true, cell: (p) => periodName(p, interval) },
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
                  {label.toLowerCase()} in {periodName(p, interval)}: show the customers
                </span>
              </button>
            ),
        })),
        { title: 'MRR at the end', numeric: true, nowrap: true, cell: (p) => money(p.mrrEndUnits, currency) },
        { title: 'Paying customers', numeric: true, cell: (p) => p.customers.end.toLocaleString() },
      ]}
    />
  );
}

export function Analytics() {
  const [interval, setSpan] = useState<Interval>('month');
  const [chosen, setCurrency] = useState<string | null>(null);
  const [drill, setDrill] = useState<DrillDown | null>(null);
  const series = useResource(() => loadSeries(interval), [interval]);
  const currencies = series.data?.months.currencies.map((c) => c.currency) ?? [];
  const currency = chosen && currencies.includes(chosen) ? chosen : currencies[0];
  const months = series.data?.months.currencies.find((c) => c.currency === currency)?.periods ?? [];
  const chart = series.data?.chart.currencies.find((c) => c.currency === currency)?.periods ?? [];
  const pick = (period: MrrPeriod, kind: MrrMovementKind) =>
    currency && setDrill({ kind, currency, start: period.start, end: lastDayOf(period), title: `${KINDS.find((k) => k.kind === kind)?.label}, ${periodName(period, interval)}` });
  const pickKind = (kind: MrrMovementKind) =>
    currency && chart.length > 0 && setDrill({ kind, currency, start: chart[0]!.start, end: lastDayOf(chart.at(-1)!), title: `${KINDS.find((k) => k.kind === kind)?.label}, the whole range` });
  return (
    <>
      <PageTitle>Analytics</PageTitle>
      <Loading loading={series.loading && !series.data} />
      <ErrorNote error={series.error} />
      {series.data && !currency ? <p className="empty">No paying customer yet: MRR starts with the first paid subscription.</p> : null}
      {currency ? <Cards cards={CARDS} periods={months} currency={currency} /> : null}
      {currency ? (
        <Section
          title="MRR movements"
          actions={
            <DownloadButton
              label="Download CSV"
              hidden={`of the MRR movements in ${currency}`}
              run={() => {
                const chartSeries = series.data!.chart;
                return download('/analytics/mrr/', { interval, currency, start: chartSeries.start, end: lastDayOf(chartSeries), format: 'csv' }, `mrr-${currency}-${interval}-${chartSeries.start}.csv`);
              }}
            />
          }
        >
          <div className="row-form">
            <fieldset className="choice">
              <legend>Interval</legend>
              {INTERVALS.map((i) => (
                <label key={i.value}>
                  <input type="radio" name="interval" value={i.value} checked={interval === i.value} onChange={() => setSpan(i.value)} />
                  {i.label}
                </label>
              ))}
            </fieldset>
            {currencies.length > 1 ? <Select label="Currency" value={currency} options={currencies.map((c) => [c, c])} onChange={(e) => setCurrency(e.target.value)} /> : null}
          </div>
          <Legend onPick={pickKind} />
          <MovementsChart periods={chart} interval={interval} currency={currency} onPick={pick} />
          <FiguresTable periods={chart} interval={interval} currency={currency} onPick={pick} />
          <p className="hint">
            Days in {series.data?.chart.timeZone}; amounts before tax, in {currency}, never converted. Every change up to {when(series.data?.chart.completeUntil)} is counted.
          </p>
        </Section>
      ) : null}
      <CashSection interval={interval} currency={currency ?? null} />
      {drill ? <AnalyticsDrillDown key={`${drill.kind} ${drill.start} ${drill.end} ${drill.currency}`} drill={drill} onClose={() => setDrill(null)} /> : null}
    </>
  );
}
