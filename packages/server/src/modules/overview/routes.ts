import { ErrorBody, Overview } from '@billow/contract';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import type { OverviewService } from './service.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody };

export function overviewRoutes(app: App, service: OverviewService): void {
  app.get(
    '/api/v1/overview/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags: ['Overview'],
        summary: "The environment's figures at a glance (ours)",
        description:
          'A Billow extension (decision 0080), for the dashboard\'s Home page. `revenue`: successful charges (paid) and refunds ' +
          "of today and of this month so far, per currency, in minor units, the day and month counted in the seller profile's time zone " +
          '(UTC without one). `mrr`: each active or past_due recurring subscription\'s amount for its period, as its next renewal would ' +
          'price it without usage (the discount it carries, else its promotion) and before tax, normalised to a month ' +
          '(yearly ÷ 12, six months ÷ 6, quarterly ÷ 3, 28 days × 365 ÷ 28 ÷ 12, weekly × 52 ÷ 12, daily × 365 ÷ 12), ' +
          'summed exactly per currency and rounded once, half up; trials and free plans are not counted. `failedPayments`: unpaid ' +
          'invoices whose payment failed, the 5 newest; `events`: the 10 newest events.',
        response: { 200: Overview, ...errors },
      },
    },
    async (request) => service.overview(scopeOf(request)),
  );
}
