import {
  SubscriptionPath,
  SubscriptionChanged,
  SubscriptionCancelled,
  ErrorBody,
  Subscription,
  SubscriptionCancel,
  SubscriptionCreate,
  SubscriptionCreated,
  SubscriptionList,
  SubscriptionListQuery,
  SubscriptionChangePreview,
  SubscriptionUpdate,
  SubscriptionVersionCounts,
  SubscriptionVersionCountsQuery,
  SUBSCRIPTION_SORTS,
  UpcomingInvoice,
} from '@billow/contract';
import { listOrder, pageOf, pageRequest } from '../../http/pagination.js';
import { SERVER_ONLY, SERVER_OR_CLIENT, type App } from '../../http/route-types.js';
import type { SubscriptionWrites } from './ports.js';
import type { SubscriptionService } from './service.js';
import { scopeOf } from '../../http/scope.js';
import { answerKeeper } from '../../http/idempotency.js';

const tags = ['Subscriptions'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

export function subscriptionRoutes(app: App, service: SubscriptionService, changes: SubscriptionWrites): void {
  app.get(
    '/api/v1/subscriptions/',
    {
      config: { auth: SERVER_OR_CLIENT },
      schema: {
        tags,
        summary: "List a customer's subscriptions",
        description:
          'customer_id is required. Without status, one row per subscription: superseded, expired and ended records and pending changes are left out. With status (a comma list), the records in those statuses. ' +
          "Ours: with plan, search or sort, customer_id may be left out to list every customer's subscriptions; `plan` keeps one plan's (identifier or UUID), " +
          "`plan_version` (with plan) keeps those on one version of it, `search` matches the customer's name, email and customerId, " +
          '`sort` (createdOn, currentPeriodEnd) with `order` (asc, desc) orders the list.',
        querystring: SubscriptionListQuery,
        response: { 200: SubscriptionList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query);
      const sort = listOrder(request.query, SUBSCRIPTION_SORTS, ['createdOn', 'currentPeriodEnd']);
      const { count, capped, results } = await service.list(scopeOf(request), request.query, at, sort);
      return pageOf(request, at, count, results, capped);
    },
  );

  app.get(
    '/api/v1/subscriptions/versions/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Count the subscriptions on each version of a plan',
        description:
          'Ours (decision 0086): every version of the plan, drafts included, newest first, with how many subscriptions ' +
          'GET /subscriptions/?plan=…&plan_version=… would list for it (with `status`, those in the statuses; without it, ' +
          'one row per live subscription as the list shows by default). 404 for a plan unknown in the environment.',
        querystring: SubscriptionVersionCountsQuery,
        response: { 200: SubscriptionVersionCounts, ...errors },
      },
    },
    async (request) => service.countsByVersion(scopeOf(request), request.query),
  );

  app.post(
    '/api/v1/subscriptions/create/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Subscribe a customer without a checkout',
        description:
          "Charges the customer's default payment method off-session for the first period. A price with a free trial starts trialing and charges nothing until the trial ends; a free plan charges nothing.",
        body: SubscriptionCreate,
        response: { 201: SubscriptionCreated, ...errors, 409: ErrorBody, 428: ErrorBody },
      },
    },
    async (request, reply) => reply.code(201).send(await changes.create(scopeOf(request), request.body, request.idempotency)),
  );

  app.get(
    '/api/v1/subscriptions/:subscriptionId/',
    {
      config: { auth: SERVER_OR_CLIENT },
      schema: { tags, summary: 'Retrieve a subscription', params: SubscriptionPath, response: { 200: Subscription, ...errors } },
    },
    async (request) => service.get(scopeOf(request), request.params.subscriptionId),
  );

  app.get(
    '/api/v1/subscriptions/:subscriptionId/upcoming-invoice/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Preview the next renewal',
        description:
          'Ours. What the next renewal (or the end of the trial) will charge if nothing changes before it: the plan version and ' +
          'quantities of the subscription, pay-as-you-go usage so far, tax, and customer credit spent first. Nothing is charged or ' +
          'recorded. 400 no_upcoming_invoice when no invoice will come: the subscription will not renew, its trial ends with no payment method to charge (it ends then), or it ends with no usage to bill.',
        params: SubscriptionPath,
        response: { 200: UpcomingInvoice, ...errors },
      },
    },
    async (request) => service.upcomingInvoice(scopeOf(request), request.params.subscriptionId),
  );

  app.post(
    '/api/v1/subscriptions/:subscriptionId/update/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Change plan, period or quantities',
        description:
          'Makes a new subscription record and supersedes this one; answers with the new id. By default the change applies now and the difference for the rest of the period is settled at once (a negative difference becomes customer credit). probationBehaviour NEXT_BILLING_CYCLE switches without settling. With paymentBehavior activate_on_payment, the change applies only once paid: until then the new record is incomplete and this one stays active; unpaid, it expires after 23 hours.',
        params: SubscriptionPath,
        body: SubscriptionUpdate,
        response: {
          200: SubscriptionChanged,
          ...errors,
          409: ErrorBody,
          428: ErrorBody,
        },
      },
    },
    async (request) => changes.update(scopeOf(request), request.params.subscriptionId, request.body, request.idempotency),
  );

  app.post(
    '/api/v1/subscriptions/:subscriptionId/update/preview/',
    {
      config: { auth: SERVER_ONLY, readOnly: true },
      schema: {
        tags,
        summary: 'Preview a change of plan, period or quantities',
        description:
          'Ours. Takes the body of POST /subscriptions/{id}/update/ and answers what that change would cost now, priced as the change ' +
          'itself is: the invoice of the rest of the period on the new terms, the unused time of the current period given back, the ' +
          'customer credit spent, and what would be charged to the card. Nothing is charged, recorded or announced; a card or a payment ' +
          'provider is not needed for the preview.',
        params: SubscriptionPath,
        body: SubscriptionUpdate,
        response: { 200: SubscriptionChangePreview, ...errors },
      },
    },
    async (request) => changes.previewUpdate(scopeOf(request), request.params.subscriptionId, request.body),
  );

  app.post(
    '/api/v1/subscriptions/:subscriptionId/cancel/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Cancel a subscription',
        description:
          'IMMEDIATE ends it now; CURRENT_PERIOD_ENDS and SPECIFIC_DATE keep it until then. No refund is made for unused time.',
        params: SubscriptionPath,
        body: SubscriptionCancel,
        response: { 200: SubscriptionCancelled, ...errors, 409: ErrorBody },
      },
    },
    async (request, reply) =>
      changes.cancel(scopeOf(request), request.params.subscriptionId, request.body, undefined, answerKeeper(request, reply, 200)),
  );
}
