import {
  ErrorBody,
  ReportEventRequest,
  ReportEventResponse,
  ReportUsageRequest,
  ReportUsageResponse,
} from '@billow/contract';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import type { UsageService } from './service.js';
import { scopeOf } from '../../http/scope.js';

const tags = ['Usage'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody };

export function usageRoutes(app: App, service: UsageService): void {
  app.post(
    '/api/v1/report/usage/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Report usage of a metered feature',
        description:
          'SET replaces the usage of the current period, DELTA adds to it (negative to correct). The feature must be a ' +
          'pre-aggregated METER granted to the customer; with several granting subscriptions the most recent one counts it. ' +
          'Usage is recorded even past a hard limit (the limit turns hasAccess off). An optional idempotencyKey makes a ' +
          'retried report count once. Crossing a usage-alert threshold sends feature.usage_alert.',
        body: ReportUsageRequest,
        response: { 200: ReportUsageResponse, ...errors },
      },
    },
    async (request) => service.reportUsage(scopeOf(request), request.body),
  );

  app.post(
    '/api/v1/report/event/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Report a raw usage event',
        description:
          'Stored once per idempotencyKey (a repeat is accepted and not counted again). RAW_EVENTS meters aggregate the ' +
          "events whose timestamp falls in their current period: events named after the meter's feature identifier or " +
          'carrying it in properties.featureId, or those its filters name, with equality filters on properties.',
        body: ReportEventRequest,
        response: { 200: ReportEventResponse, ...errors },
      },
    },
    async (request) => service.reportEvent(scopeOf(request), request.body),
  );
}
