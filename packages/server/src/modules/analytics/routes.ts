import { AnalyticsCashQuery, AnalyticsMovementsQuery, AnalyticsMrrQuery, CashSeries, ErrorBody, MrrMovementList, MrrSeries } from '@billow/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageOf, pageRequest } from '../../http/pagination.js';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import type { CashService } from './cash.service.js';
import { cashCsv, movementsCsv, seriesCsv } from './csv.compute.js';
import type { AnalyticsService } from './service.js';

export const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody };
export const CSV_NOTE =
  ' With `format=csv` (or `Accept: text/csv`, when `format` is not given) the answer is CSV: a header row, amounts in minor units, ' +
  'rates in basis points (an empty cell when a rate has no denominator).';

/** Whether the request asks for CSV: `format=csv`, or an Accept header that names text/csv and no `format`. */
export function wantsCsv(request: FastifyRequest<{ Querystring: { format?: 'json' | 'csv' } }>): boolean {
  if (request.query.format) return request.query.format === 'csv';
  return /\btext\/csv\b/i.test(request.headers.accept ?? '');
}

export function sendCsv(reply: FastifyReply, fileName: string, csv: string): FastifyReply {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(csv);
}

export function analyticsRoutes(app: App, service: AnalyticsService, cash: CashService): void {
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
          "clock's time. Each currency's figures stand apart; with `reporting_currency` the answer adds, under `reporting`, the figures " +
          'converted into it (each rounded once from the exact amounts) and the rate of every currency and its source (decision 0102). ' +
          "With `plan` or `product`, the figures are that plan's or product's alone, as its own customers: a move from one plan to " +
          'another is a churn of the first and a new customer of the second (decision 0106). Default: the 12 months up to today, by ' +
          'month, the whole business.' +
          CSV_NOTE +
          ' One row per currency and period.',
        querystring: AnalyticsMrrQuery,
        produces: ['application/json', 'text/csv'],
        response: { 200: MrrSeries, ...errors },
      },
    },
    async (request, reply) => {
      const series = await service.mrrSeries(scopeOf(request), request.query);
      if (!wantsCsv(request)) return series;
      return sendCsv(reply, `mrr-${series.start}-${series.end}.csv`, seriesCsv(series));
    },
  );

  app.get<{ Querystring: AnalyticsMovementsQuery }>(
    '/api/v1/analytics/mrr/movements/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags: ['Analytics'],
        summary: 'The MRR movements behind a figure, newest first (ours)',
        description:
          'A Billow extension (issue 30, decision 0097): the drill-down of GET /analytics/mrr/. Each movement of the days from `start` ' +
          'to `end` (inclusive, the seller profile\'s time zone), optionally of one kind and one currency, with its customer, the ' +
          'subscription whose change made it, its signed amount and the customer\'s MRR after it. Movements are kept exactly, in ' +
          "336ths of a minor unit; each amount here is rounded half up once from that, so the rounded amounts of a period's movements " +
          "may differ by a unit or so from the period's figure, which rounds their exact sum. With `plan` or `product`, the " +
          "movements of that plan's or product's figures. Default range: the 12 months up to today." +
          CSV_NOTE +
          ' The CSV holds every movement of the range (not a page), up to 50,000.',
        querystring: AnalyticsMovementsQuery,
        produces: ['application/json', 'text/csv'],
        response: { 200: MrrMovementList, ...errors },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      if (wantsCsv(request)) {
        const name = `mrr-movements${request.query.kind ? `-${request.query.kind}` : ''}.csv`;
        return sendCsv(reply, name, movementsCsv(await service.allMovements(scope, request.query)));
      }
      const at = pageRequest(request.query);
      const { count, results } = await service.movements(scope, request.query, { limit: at.pageSize, offset: at.offset });
      return pageOf(request, at, count, results);
    },
  );

  app.get<{ Querystring: AnalyticsCashQuery }>(
    '/api/v1/analytics/cash/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags: ['Analytics'],
        summary: 'Cash collected and refunded, failed payments and what dunning recovered, per period (ours)',
        description:
          'A Billow extension (issue 30, decision 0099; the definitions with worked examples are in docs/analytics.md). For each ' +
          "currency and each period (a day, a week from Monday or a month, in the seller profile's time zone): the successful payments " +
          '(collected, tax included) and refunds, their difference (net), and the dunning figures of the invoices whose first payment ' +
          'attempt failed in the period: how many and how much failed, how much of that was paid since (recovered, by a retry or by ' +
          'the customer) and how much was lost (dunning ended unpaid), and the recovery rate by amount. Failures, recoveries and losses ' +
          'count in the period of the first failure, so the recovered and lost figures of a recent period still grow as dunning goes on. ' +
          "In the sandbox, a customer on a test clock moves on the clock's time. The figures are kept per day as payments are written; " +
          "`completeUntil` says until when. Each currency's figures stand apart; with `reporting_currency` the answer adds, under " +
          '`reporting`, the figures converted into it (each amount rounded once from the exact ones) and the rate of every currency and ' +
          'its source (decision 0102). With `plan` or `product` (not both), the figures of that plan\'s or product\'s orders alone: a ' +
          "payment, a refund or a failed invoice counts for the plan and product of the order it belongs to — a renewal's is its " +
          "subscription's plan then, a plan change's the new plan, a one-time purchase's the plan bought (decision 0107); an unknown " +
          'identifier gives no currency. Default: the 12 months up to today, by month, the whole business.' +
          CSV_NOTE +
          ' One row per currency and period, then the converted ones.',
        querystring: AnalyticsCashQuery,
        produces: ['application/json', 'text/csv'],
        response: { 200: CashSeries, ...errors },
      },
    },
    async (request, reply) => {
      const series = await cash.series(scopeOf(request), request.query);
      if (!wantsCsv(request)) return series;
      return sendCsv(reply, `cash-${series.start}-${series.end}.csv`, cashCsv(series));
    },
  );
}
