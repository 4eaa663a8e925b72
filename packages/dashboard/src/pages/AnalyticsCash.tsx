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
import { t } from '../i18n/language';
import { DownloadButton, ErrorNote, Section, Table } from '../ui/kit';
import { Cards, type Card } from './AnalyticsCards';
import { BarChart } from './AnalyticsChart';
import { ConversionNote } from './AnalyticsReporting';
import { segmentQuery, type Segment } from './AnalyticsSegment';
import { INTERVALS, lastDayOf, periodName, rate, type Interval } from './analytics-words';

/** The recovery rate, or that nothing failed (the rate has no denominator then). */
const recovery = (p: CashPeriod) => (p.recoveryRateBp === null ? t('cash.noFailed') : rate(p.recoveryRateBp));

const CARDS: ReadonlyArray<Card<CashPeriod>> = [
  { label: 'cash.collected', figure: (p, c) => money(p.collected.amountUnits, c), trend: (p) => p.collected.amountUnits },
  { label: 'cash.refunded', figure: (p, c) => money(p.refunded.amountUnits, c) },
  { label: 'cash.net', figure: (p, c) => money(p.netUnits, c), trend: (p) => p.netUnits },
  { label: 'cash.recoveredByDunning', figure: recovery },
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
      { key: 'collected', className: 'cash-collected', label: t('cash.collected'), units: p.collected.amountUnits },
      { key: 'refunded', className: 'cash-refunded', label: t('cash.refunded'), units: -p.refunded.amountUnits },
    ],
    line: p.netUnits,
  }));
  const title = t('cash.chartTitle', { currency, interval });
  return <BarChart id="cash-chart" title={title} columns={columns} interval={interval} currency={currency} lineClass="cash-line" />;
}

function Legend() {
  return (
    <ul className="legend">
      <li>
        <span className="swatch cash-collected" aria-hidden="true" />
        {t('cash.collected')}
      </li>
      <li>
        <span className="swatch cash-refunded" aria-hidden="true" />
        {t('cash.refunded')}
      </li>
      <li>
        <span className="swatch swatch-line" aria-hidden="true" />
        {t('cash.net')}
      </li>
    </ul>
  );
}

function CashTable({ periods, interval, currency }: { periods: CashPeriod[]; interval: Interval; currency: string }) {
  const amount = (units: number) => money(units, currency);
  return (
    <Table
      caption={t('cash.title')}
      rows={[...periods].reverse()}
      rowKey={(p) => p.period}
      empty={t('analytics.nothingYet')}
      columns={[
        { title: t('common.period'), nowrap: true, cell: (p) => periodName(p, interval) },
        { title: t('cash.collected'), numeric: true, nowrap: true, cell: (p) => amount(p.collected.amountUnits) },
        { title: t('cash.refunded'), numeric: true, nowrap: true, cell: (p) => amount(p.refunded.amountUnits) },
        { title: t('cash.net'), numeric: true, nowrap: true, cell: (p) => amount(p.netUnits) },
        { title: t('cash.failed'), numeric: true, nowrap: true, cell: (p) => amount(p.failed.amountUnits) },
        { title: t('cash.recovered'), numeric: true, nowrap: true, cell: (p) => amount(p.recovered.amountUnits) },
        { title: t('cash.lost'), numeric: true, nowrap: true, cell: (p) => amount(p.lost.amountUnits) },
        { title: t('cash.recoveryRate'), numeric: true, nowrap: true, cell: recovery },
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
    <Section
      title={t('cash.title')}
      actions={currency ? <DownloadButton label={t('analytics.downloadCsv')} hidden={t('cash.ofFigures', { currency })} run={run} /> : undefined}
    >
      <ErrorNote error={cash.error} />
      {cash.data && !currency ? <p className="empty">{segment ? t('cash.noPaymentSegment') : t('cash.noPayment')}</p> : null}
      {currency ? (
        <>
          <Cards cards={CARDS} periods={months} currency={currency} />
          <Legend />
          <CashChart periods={chart} interval={interval} currency={currency} />
          <CashTable periods={chart} interval={interval} currency={currency} />
          <p className="hint">
            {t('cash.about', { until: when(cash.data?.chart.completeUntil) })}
            {segment ? ` ${t('cash.aboutSegment')}` : ''}
          </p>
          {converted && cash.data?.chart.reporting ? (
            <ConversionNote conversion={cash.data.chart.reporting.conversion} amounts={new Map()} what={t('cash.everyAmount', { currency })} />
          ) : null}
        </>
      ) : null}
    </Section>
  );
}
