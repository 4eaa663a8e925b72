/**
 * The subscriber figures of the Analytics page (issue 30, decision 0101): active subscriptions,
 * subscriptions in their trial and trial-to-paid conversion, this month against last month's,
 * and the trials of each month in a table; every currency counted together.
 */
import type { SubscriberPeriod, SubscriberSeries } from '@billow/contract';
import { api, download } from '../api';
import { useResource } from '../data';
import { when } from '../format';
import { DownloadButton, ErrorNote, Section, Table } from '../ui/kit';
import { Cards, type Card } from './AnalyticsCards';
import { segmentQuery, type Segment } from './AnalyticsSegment';
import { lastDayOf, periodName, rate } from './analytics-words';

const count = (n: number) => n.toLocaleString();

const CARDS: ReadonlyArray<Card<SubscriberPeriod>> = [
  { label: 'Active subscriptions', figure: (p) => count(p.activeSubscriptionsEnd), trend: (p) => p.activeSubscriptionsEnd },
  { label: 'In trial', figure: (p) => count(p.trialsEnd), trend: (p) => p.trialsEnd },
  {
    label: 'Trial conversion',
    figure: (p) => rate(p.trialConversionRateBp),
    detail: (p) => (p.trialsEnded === 0 ? 'No trial ended' : `${count(p.trialsConverted)} of ${count(p.trialsEnded)} ${p.trialsEnded === 1 ? 'trial' : 'trials'} that ended became paid`),
  },
];

function TrialsTable({ periods }: { periods: SubscriberPeriod[] }) {
  return (
    <Table
      caption="Trials by month"
      rows={[...periods].reverse()}
      rowKey={(p) => p.period}
      empty="Nothing yet."
      columns={[
        { title: 'Month', nowrap: true, cell: (p) => periodName(p, 'month') },
        { title: 'Trials started', numeric: true, cell: (p) => count(p.trialsStarted) },
        { title: 'Trials ended', numeric: true, cell: (p) => count(p.trialsEnded) },
        { title: 'Became paid', numeric: true, cell: (p) => count(p.trialsConverted) },
        { title: 'Trial conversion', numeric: true, nowrap: true, cell: (p) => rate(p.trialConversionRateBp) },
        { title: 'In trial at the end', numeric: true, cell: (p) => count(p.trialsEnd) },
        { title: 'Active subscriptions at the end', numeric: true, cell: (p) => count(p.activeSubscriptionsEnd) },
      ]}
    />
  );
}

/** The cards and the section, from the last twelve months of GET /analytics/subscribers/, of the figures the page's "Figures of" menu chose (decision 0107). */
export function SubscribersAndTrials({ segment }: { segment: Segment }) {
  const series = useResource(() => api<SubscriberSeries>('GET', '/analytics/subscribers/', { query: { interval: 'month', ...segmentQuery(segment) } }), [segment]);
  const periods = series.data?.allCurrencies ?? [];
  return (
    <>
      <ErrorNote error={series.error} />
      <Cards cards={CARDS} periods={periods} currency="" name="Subscribers and trials" />
      {series.data ? (
        <Section
          title="Trials"
          actions={
            <DownloadButton
              label="Download CSV"
              hidden="of the trials and subscribers by month"
              run={() =>
                download('/analytics/subscribers/', { interval: 'month', ...segmentQuery(segment), start: series.data!.start, end: lastDayOf(series.data!), format: 'csv' }, `subscribers-${series.data!.start}.csv`)
              }
            />
          }
        >
          <TrialsTable periods={periods} />
          <p className="hint">
            Every currency counted together. A trial converts when its first paid period begins; one cancelled before its end, or that ends without a
            way to pay, ended without converting.{segment.startsWith('plan:') ? " A plan change moves a subscription to the new plan's figures; a trial it was in ends on this plan without converting." : ''} Every change up to {when(series.data.completeUntil)} is counted.
          </p>
        </Section>
      ) : null}
    </>
  );
}
