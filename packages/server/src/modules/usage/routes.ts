import {
  ErrorBody,
  ReportUsageBatchRequest,
  ReportUsageBatchResponse,
  USAGE_BATCH_MAX,
  ReportEventRequest,
  ReportEventResponse,
  ReportUsageRequest,
  ReportUsageResponse,
} from '@billow/contract';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import type { UsageService } from './service.js';
import type { UsageBatchService } from './batch.js';
import { scopeOf } from '../../http/scope.js';

const tags = ['Usage'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody };

/** A full batch of reports with every field at its longest, several times over: above the server-wide default. */
const BATCH_BODY_LIMIT = 8 * 1024 * 1024;

export function usageRoutes(app: App, service: UsageService, batch: UsageBatchService): void {
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
    async (request) => service.reportUsage(scopeOf(request), request.body, request.idempotency?.key),
  );

  app.post(
    '/api/v1/report/usage/batch/',
    {
      config: { auth: SERVER_ONLY },
      bodyLimit: BATCH_BODY_LIMIT,
      schema: {
        tags,
        summary: `Report up to ${USAGE_BATCH_MAX} usages at once (a Billow addition)`,
        description:
          'Each report is what POST /report/usage/ takes, with an idempotencyKey of its own (required here), and gets a ' +
          'result of its own, in the order sent: accepted (counted now), duplicate (its key was counted before for the same ' +
          'report, in an earlier request or earlier in this batch; not counted again) or rejected (not counted; code and ' +
          'detail as a single report would answer, e.g. feature_not_granted or idempotency_key_reused). A report that ' +
          'fails the schema refuses the whole batch (400, naming it, nothing counted). The reports that only add are ' +
          'committed together; SETs and reports needing their counter in order follow one by one. A batch that got no ' +
          'answer can be sent again whole: what was counted answers duplicate. See docs/usage.md.',
        body: ReportUsageBatchRequest,
        response: { 200: ReportUsageBatchResponse, ...errors },
      },
    },
    async (request) => batch.reportBatch(scopeOf(request), request.body.reports, request.idempotency?.resumedSince),
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
