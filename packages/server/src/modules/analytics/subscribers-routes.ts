import { AnalyticsSubscribersQuery, SubscriberSeries } from '@billow/contract';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import { CSV_NOTE, errors, sendCsv, wantsCsv } from './routes.js';
import { subscribersCsv } from './subscribers-csv.compute.js';
import type { AnalyticsService } from './service.js';

export function subscribersRoutes(app: App, service: AnalyticsService): void {
  app.get<{ Querystring: AnalyticsSubscribersQuery }>(
    '/api/v1/analytics/subscribers/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags: ['Analytics'],
        summary: 'Active subscriptions, trials and trial-to-paid conversion, per period (ours)',
        description:
          'A Billow extension (issue 30, decision 0101; the definitions are in docs/analytics.md). For each currency and each period ' +
          "(a day, a week from Monday or a month, in the seller profile's time zone), and for every currency together: the active " +
          'subscriptions (MRR above 0) at its start and end, the subscriptions in their trial at its start and end, the trials that ' +
          'started, ended and converted in it (a trial converts when its first paid period begins; one cancelled before its end, or ' +
          'that ends without a way to pay, ended and did not convert), and the conversion rate: converted / ended. A trial that a plan ' +
          'change carries on to the new plan goes on. The figures are kept as subscriptions change, by the job that keeps the MRR ' +
          'movements: `completeUntil` says until when every change is counted. With `plan` or `product` (not both), the figures of ' +
          "that plan's or product's subscriptions alone (decision 0107): a plan change moves a subscription from one plan's count to " +
          "the other's, and a trial it was in ends for the first plan without converting (a new plan's trial starts with it); an " +
          'unknown identifier gives no currency. Default: the 12 months up to today, by month, the whole business.' +
          CSV_NOTE +
          ' One row per currency and period, then one per period for every currency together (currency `all`).',
        querystring: AnalyticsSubscribersQuery,
        produces: ['application/json', 'text/csv'],
        response: { 200: SubscriberSeries, ...errors },
      },
    },
    async (request, reply) => {
      const series = await service.subscribersSeries(scopeOf(request), request.query);
      if (!wantsCsv(request)) return series;
      return sendCsv(reply, `subscribers-${series.start}-${series.end}.csv`, subscribersCsv(series));
    },
  );
}
