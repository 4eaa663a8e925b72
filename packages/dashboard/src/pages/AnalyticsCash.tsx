/**
 * The cash and dunning part of the Analytics page (issue 30, decision 0099): this month's
 * collected, refunded and net cash and the recovery rate of failed payments against last
 * month's; the cash by period as a chart (collected above zero, refunded below, the net as the
 * line) with every figure, the dunning ones too, in the table under it.
 */
import type { CashPeriod, CashSeries } from '@billow/contract';
import { api, download } from '../api';
import { useResource } from '../data';
import { money, when } from '../format';
import { DownloadButton, ErrorNote, Section, Table } from '../ui/kit';
import { Cards, type Card } from './AnalyticsCards';
import { BarChart } from './AnalyticsChart';
import { ConversionNote } from './AnalyticsReporting';
import { segmentQuery, type Segment } from './AnalyticsSegment';
import { INTERVALS, lastDayOf, periodName, rate, type Interval } from './analytics-words';

/** The recovery rate, or that nothing failed (the rate has no denominator then). */
const recovery = (p: CashPeriod) => (p.recoveryRateBp === null ? 'No failed payment' : rate(p.recoveryRateBp));

const CARDS: ReadonlyArray<Card<CashPeriod>> = [
  { label: 'Collected', figure: (p, c) => money(p.collected.amountUnits, c), trend: (p) => p.collected.amountUnits },
  { label: 'Refunded', figure: (p, c) => money(p.refunded.amountUnits, c) },
  { label: 'Net cash', figure: (p, c) => money(p.netUnits, c), trend: (p) => p.netUnits },
  { label: 'Recovered by dunning', figure: recovery },
];

async function loadCash(interval: Interval, reporting: string | null, segment: Segment): Promise<{ months: CashSeries; chart: CashSeries }> {
  const convert = { ...(reporting ? { reporting_currency: reporting } : {}), ...segmentQuery(segment) };
  const months = api<CashSeries>('GET', '/analytics/cash/', { query: { interval: 'month', ...convert } });
  const start = INTERVALS.find((i) => i.value === interval)?.start();
  const chart = interval === 'month' ? months : api<CashSeries>('GET', '/analytics/cash/', { query: { interval, start, ...convert } });
  return { months: await months, chart: await chart };
}

/** A series' periods in one currency, or converted into the reporting currency. */
function periodsOf(series: CashSeries | undefined, currency: string | undefined, converted: boolean): CashPeriod[] {
  if (converted) return series?.reporting?.periods ?? [];
  return series?.currencies.find((c) => c.currency === currency)?.periods ?? [];
}

function CashChart({ periods, interval, currency }: { periods: CashPeriod[]; interval: Interval; currency: string }) {
  const columns = periods.map((p) => ({
    period: p,
    bars: [
      { key: 'collected', className: 'cash-collected', label: 'Collected', units: p.collected.amountUnits },
      { key: 'refunded', className: 'cash-refunded', label: 'Refunded', units: -p.refunded.amountUnits },
    ],
    line: p.netUnits,
  }));
  const title = `Cash collected, refunded and net in ${currency}, by ${interval}; the same figures are in the table below`;
  return <BarChart id="cash-chart" title={title} columns={columns} interval={interval} currency={currency} lineClass="cash-line" />;
}

function Legend() {
  return (
    <ul className="legend">
      <li>
        <span className="swatch cash-collected" aria-hidden="true" />
        Collected
      </li>
      <li>
        <span className="swatch cash-refunded" aria-hidden="true" />
        Refunded
      </li>
      <li>
        <span className="swatch swatch-line" aria-hidden="true" />
        Net cash
      </li>
    </ul>
  );
}

function CashTable({ periods, interval, currency }: { periods: CashPeriod[]; interval: Interval; currency: string }) {
  const amount = (units: number) => money(units, currency);
  return (
    <Table
      caption="Cash and dunning"
      rows={[...periods].reverse()}
      rowKey={(p) => p.period}
      empty="Nothing yet."
      columns={[
        { title: 'Period', nowrap: true, cell: (p) => periodName(p, interval) },
        { title: 'Collected', numeric: true, nowrap: true, cell: (p) => amount(p.collected.amountUnits) },
        { title: 'Refunded', numeric: true, nowrap: true, cell: (p) => amount(p.refunded.amountUnits) },
        { title: 'Net cash', numeric: true, nowrap: true, cell: (p) => amount(p.netUnits) },
        { title: 'Failed payments', numeric: true, nowrap: true, cell: (p) => amount(p.failed.amountUnits) },
        { title: 'Recovered', numeric: true, nowrap: true, cell: (p) => amount(p.recovered.amountUnits) },
        { title: 'Lost', numeric: true, nowrap: true, cell: (p) => amount(p.lost.amountUnits) },
        { title: 'Recovery rate', numeric: true, nowrap: true, cell: recovery },
      ]}
    />
  );
}

/**
 * The section by the page's interval: in the page's currency when cash moved in it (else the
 * first that moved), or, when the page shows every currency converted, in the reporting one;
 * of the figures the page's "Figures of" menu chose (decision 0107).
 */
export function CashSection({ interval, currency: wanted, reporting, segment }: { interval: Interval; currency: string | null; reporting: string | null; segment: Segment }) {
  const cash = useResource(() => loadCash(interval, reporting, segment), [interval, reporting, segment]);
  const currencies = cash.data?.months.currencies.map((c) => c.currency) ?? [];
  const converted = reporting !== null && currencies.length > 0;
  const currency = converted ? reporting : wanted && currencies.includes(wanted) ? wanted : currencies[0];
  const months = periodsOf(cash.data?.months, currency, converted);
  const chart = periodsOf(cash.data?.chart, currency, converted);
  const run = () => {
    const series = cash.data!.chart;
    const which = converted ? { reporting_currency: reporting } : { currency: currency! };
    return download('/analytics/cash/', { interval, ...which, ...segmentQuery(segment), start: series.start, end: lastDayOf(series), format: 'csv' }, `cash-${converted ? 'all' : currency}-${interval}-${series.start}.csv`);
  };
  return (
    <Section title="Cash and dunning" actions={currency ? <DownloadButton label="Download CSV" hidden={`of the cash and dunning figures in ${currency}`} run={run} /> : undefined}>
      <ErrorNote error={cash.error} />
      {cash.data && !currency ? <p className="empty">{segment ? 'No payment for this one in these months.' : 'No payment yet.'}</p> : null}
      {currency ? (
        <>
          <Cards cards={CARDS} periods={months} currency={currency} />
          <Legend />
          <CashChart periods={chart} interval={interval} currency={currency} />
          <CashTable periods={chart} interval={interval} currency={currency} />
          <p className="hint">
            Payments and refunds count on the day the money moved, tax included{segment ? ', counted for the plan and the product of the order they paid' : ''}. A failed payment counts in the period of its first failed attempt, and so do its
            recovery (paid later, by a retry or by the customer) and its loss (retries ran out): the recent periods still change while retries go on. Every payment up
            to {when(cash.data?.chart.completeUntil)} is counted.
          </p>
          {converted && cash.data?.chart.reporting ? (
            <ConversionNote conversion={cash.data.chart.reporting.conversion} amounts={new Map()} what={`Every amount of the cash above is in ${currency}, each currency converted at one rate:`} />
          ) : null}
        </>
      ) : null}
    </Section>
  );
}
