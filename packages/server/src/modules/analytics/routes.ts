import { AnalyticsMrrQuery, ErrorBody, MrrSeries } from '@billow/contract';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import type { AnalyticsService } from './service.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody };

export function analyticsRoutes(app: App, service: AnalyticsService): void {
  app.get<{ Querystring: AnalyticsMrrQuery }>(
    '/api/v1/analytics/mrr/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags: ['Analytics'],
        summary: 'MRR, its movements, churn and retention, per period (ours)',
        description:
          'A Billow extension (issue 30, decision 0097; the definitions with worked examples are in docs/analytics.md). For each ' +
          'currency and each period (a day, a week from Monday or a month, in the seller profile\'s time zone): the MRR at its start ' +
          'and end, the ARR, the movements (new, expansion, reactivation, contraction, churned: they add up to the change of MRR ' +
          'exactly), the paying customers, the customer and revenue churn rates, the net revenue retention, the ARPU and the lifetime ' +
          'value. MRR is each active or past_due recurring subscription\'s amount, after its recurring discount and before tax, ' +
          'normalised to a month; movements are counted per customer. The figures are kept as subscriptions change, by a background ' +
          'job: `completeUntil` says until when every change is counted. In the sandbox, a customer on a test clock moves on the ' +
          "clock's time. Amounts are never converted between currencies. Default: the 12 months up to today, by month.",
        querystring: AnalyticsMrrQuery,
        response: { 200: MrrSeries, ...errors },
      },
    },
    async (request) => service.mrrSeries(scopeOf(request), request.query),
  );
}
