import { AnalyticsSettings, AnalyticsSettingsUpdate, ErrorBody } from '@billow/contract';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import type { ReportingService } from './reporting.service.js';

const tags = ['Analytics'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody };
const ABOUT =
  'A Billow extension (issue 30, decision 0102): the reporting currency the analytics convert figures into, and the exchange rates the seller ' +
  'sets into it, each an exact decimal (at most 12 digits before the point and 12 after) with when and by whom it was set. A currency without a ' +
  "rate set is converted at a rate derived from the plans' own prices (the median of the ratios of the prices of each plan priced in both " +
  'currencies for the same period, to six significant digits); with neither, it is not converted, and the answer says so. `conversion` states ' +
  'how each currency the environment sells or earns in converts today. ';

export function reportingRoutes(app: App, service: ReportingService): void {
  app.get(
    '/api/v1/analytics/settings/',
    {
      config: { auth: SERVER_ONLY },
      schema: { tags, summary: 'Retrieve the reporting currency and exchange rates (ours)', description: ABOUT, response: { 200: AnalyticsSettings, ...errors } },
    },
    async (request) => service.settings(scopeOf(request)),
  );

  app.put(
    '/api/v1/analytics/settings/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Set the reporting currency and exchange rates (ours)',
        description:
          ABOUT +
          '`rates` replaces the rates set into `reportingCurrency`, or keeps them when left out (rates set into another currency are kept for when it is chosen again); a rate sent ' +
          'unchanged keeps its date and who set it. An unknown currency code, a rate that is not a positive decimal within that precision, a rate of the ' +
          'reporting currency itself, or a currency given twice answers 400. The change is recorded in the audit log.',
        body: AnalyticsSettingsUpdate,
        response: { 200: AnalyticsSettings, ...errors },
      },
    },
    async (request) => service.update(scopeOf(request), request.body),
  );
}
