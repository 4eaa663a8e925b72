/**
 * The subscriber figures of the Analytics page (issue 30, decision 0101): active subscriptions,
 * subscriptions in their trial and trial-to-paid conversion, this month against last month's,
 * and the trials of each month in a table; every currency counted together.
 */
import type { SubscriberPeriod, SubscriberSeries } from '@billow/contract';
import { api, download } from '../api';
import { useResource } from '../data';
import { count, when } from '../format';
import { t } from '../i18n/language';
import { DownloadButton, ErrorNote, Section, Table } from '../ui/kit';
import { Cards, type Card } from './AnalyticsCards';
import { segmentQuery, type Segment } from './AnalyticsSegment';
import { lastDayOf, periodName, rate } from './analytics-words';


const CARDS: ReadonlyArray<Card<SubscriberPeriod>> = [
  { label: 'trials.active', figure: (p) => count(p.activeSubscriptionsEnd), trend: (p) => p.activeSubscriptionsEnd },
  { label: 'trials.inTrial', figure: (p) => count(p.trialsEnd), trend: (p) => p.trialsEnd },
  {
    label: 'trials.conversion',
    figure: (p) => rate(p.trialConversionRateBp),
    detail: (p) => (p.trialsEnded === 0 ? t('trials.noneEnded') : t('trials.converted', { converted: count(p.trialsConverted), ended: count(p.trialsEnded), count: p.trialsEnded })),
  },
];

function TrialsTable({ periods }: { periods: SubscriberPeriod[] }) {
  return (
    <Table
      caption={t('trials.caption')}
      rows={[...periods].reverse()}
      rowKey={(p) => p.period}
      empty={t('analytics.nothingYet')}
      columns={[
        { title: t('trials.month'), nowrap: true, cell: (p) => periodName(p, 'month') },
        { title: t('trials.started'), numeric: true, cell: (p) => count(p.trialsStarted) },
        { title: t('trials.ended'), numeric: true, cell: (p) => count(p.trialsEnded) },
        { title: t('trials.becamePaid'), numeric: true, cell: (p) => count(p.trialsConverted) },
        { title: t('trials.conversion'), numeric: true, nowrap: true, cell: (p) => rate(p.trialConversionRateBp) },
        { title: t('trials.inTrialEnd'), numeric: true, cell: (p) => count(p.trialsEnd) },
        { title: t('trials.activeEnd'), numeric: true, cell: (p) => count(p.activeSubscriptionsEnd) },
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
      <Cards cards={CARDS} periods={periods} currency="" name={t('trials.figures')} />
      {series.data ? (
        <Section
          title={t('trials.title')}
          actions={
            <DownloadButton
              label={t('analytics.downloadCsv')}
              hidden={t('trials.ofFigures')}
              run={() =>
                download('/analytics/subscribers/', { interval: 'month', ...segmentQuery(segment), start: series.data!.start, end: lastDayOf(series.data!), format: 'csv' }, `subscribers-${series.data!.start}.csv`)
              }
            />
          }
        >
          <TrialsTable periods={periods} />
          <p className="hint">
            {t('trials.about', { until: when(series.data.completeUntil) })}
            {segment.startsWith('plan:') ? ` ${t('trials.aboutPlanChange')}` : ''}
          </p>
        </Section>
      ) : null}
    </>
  );
}
