import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import {
  ErrorBody,
  PlanCreate,
  PlanEntitlementList,
  PlanEntitlementPatch,
  PlanEntitlementsCreate,
  PlanFile,
  PlanFileUpdate,
  PlanList,
  PlanPath,
  PlanCurrencyPath,
  PlanCurrencyPriceInput,
  PlanPriceList,
  PlanPricesBulk,
  PlanPricesResult,
  PlanPublish,
  PlanPublished,
  PlanUpdate,
  PageQuery,
  Plan,
  VersionPageQuery,
  VersionQuery,
  PlanFeaturePath,
  PlanFilePath,
  PlanEntitlementUpdated,
  NoContent,
} from '@billow/contract';
import { CATALOG_PAGE_SIZE, pageOf, pageRequest } from '../../../http/pagination.js';
import { SERVER_ONLY, SERVER_OR_CLIENT, type App } from '../../../http/route-types.js';
import { rootUrl } from '../../../http/urls.js';
import type { PlanEntitlementService } from '../entitlements/service.js';
import type { PriceService } from '../prices/service.js';
import type { PlanService } from './service.js';
import { answerKeeper } from '../../../http/idempotency.js';
import { scopeOf } from '../../../http/scope.js';
import { versionNotTargetable } from '../errors.js';

/** Reads are open to client keys, for pricing pages in the browser; writes need a server key. */
const readAuth = { auth: SERVER_OR_CLIENT };
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const auth = { auth: SERVER_ONLY };
const DRAFT_RULE =
  'When the newest version of the plan is published, this first makes a new draft version as a copy of it and changes the draft; the published version never changes.';

/**
 * Writes the reference gives no `version`: one named is refused (400), never
 * ignored, so a seller aiming at one version never changes another.
 */
function refuseVersion(action: string) {
  return async (request: FastifyRequest): Promise<void> => {
    if ((request.query as Record<string, unknown> | undefined)?.version !== undefined) throw versionNotTargetable(action);
  };
}
const ON_NEWEST = 'changes go to the newest version (a published one through a new draft); send no version';

export interface PlanRouteDeps {
  plans: PlanService;
  prices: PriceService;
  entitlements: PlanEntitlementService;
  publicUrl: string | null;
}

function planRoutesProper(app: App, { plans }: PlanRouteDeps): void {
  const tags = ['Plans'];
  app.get(
    '/api/v1/catalog/plans/',
    {
      config: readAuth,
      schema: {
        tags,
        summary: 'List plans',
        description:
          'One row per plan: its newest version. Archived plans and plans of archived products are left out.',
        querystring: PageQuery,
        response: { 200: PlanList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query, CATALOG_PAGE_SIZE);
      const { count, results } = await plans.list(scopeOf(request), at);
      return pageOf(request, at, count, results);
    },
  );

  app.post(
    '/api/v1/catalog/plans/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Create a plan',
        description: 'The plan starts as a draft (version 1, isLatest false); publish it to put it on sale.',
        body: PlanCreate,
        response: { 201: Plan, ...errors, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.code(201).send(await plans.create(scopeOf(request), request.body, answerKeeper(request, reply, 201))),
  );

  app.get(
    '/api/v1/catalog/plans/:identifier/',
    {
      config: readAuth,
      schema: {
        tags,
        summary: 'Retrieve a plan',
        description: 'Its newest version, or the one named by `version`.',
        params: PlanPath,
        querystring: VersionQuery,
        response: { 200: Plan, ...errors },
      },
    },
    async (request) => plans.get(scopeOf(request), request.params.identifier, request.query.version),
  );

  app.patch(
    '/api/v1/catalog/plans/:identifier/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Update a plan',
        description: `${DRAFT_RULE} fileKeys are appended to the plan's files. \`version\`, when given, must name the newest version (400 for an older one, 404 for none).`,
        params: PlanPath,
        querystring: VersionQuery,
        body: PlanUpdate,
        response: { 200: Plan, ...errors },
      },
    },
    async (request) => plans.update(scopeOf(request), request.params.identifier, request.body, request.query.version),
  );

  app.delete(
    '/api/v1/catalog/plans/:identifier/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Archive a plan',
        description: 'Archives every version; existing subscribers keep what they have. A `version` is refused (400): no single version can be archived.',
        params: PlanPath,
        response: { 204: NoContent, ...errors },
      },
      preValidation: refuseVersion('archiving a plan archives every version; no single version can be archived'),
    },
    async (request, reply) => {
      await plans.archive(scopeOf(request), request.params.identifier);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/catalog/plans/:identifier/publish/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Publish the draft',
        description:
          'The newest draft goes on sale and the version sold until now is superseded. It needs at least one enabled price. updateFeatures and updatePricing are kept with the version for moving existing subscribers.',
        params: PlanPath,
        body: PlanPublish,
        response: { 200: PlanPublished, ...errors },
      },
      preValidation: [
        refuseVersion('publish always publishes the newest draft'),
        // The options are optional, and so is the body that carries them.
        async (request) => {
          request.body ??= {};
        },
      ],
    },
    async (request, reply) => plans.publish(scopeOf(request), request.params.identifier, request.body, answerKeeper(request, reply, 200)),
  );

  app.delete(
    '/api/v1/catalog/plans/:identifier/discard/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Discard the draft',
        description: 'Deletes the newest version when it is a draft. A plan that was never published is deleted.',
        params: PlanPath,
        response: { 204: NoContent, ...errors },
      },
      preValidation: refuseVersion('discard always removes the newest version, and only when it is a draft'),
    },
    async (request, reply) => {
      await plans.discard(scopeOf(request), request.params.identifier);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/catalog/plans/:identifier/versions/',
    {
      config: readAuth,
      schema: {
        tags,
        summary: "List a plan's versions",
        description: 'Newest first.',
        params: PlanPath,
        querystring: PageQuery,
        response: { 200: PlanList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query, CATALOG_PAGE_SIZE);
      const { count, results } = await plans.versions(scopeOf(request), request.params.identifier, at);
      return pageOf(request, at, count, results);
    },
  );
}

function priceRoutes(app: App, { prices }: PlanRouteDeps): void {
  const tags = ['Plans'];
  app.get(
    '/api/v1/catalog/plans/:identifier/prices/',
    {
      config: readAuth,
      schema: {
        tags,
        summary: "List a plan's prices",
        description: 'One price per currency, of the newest version or the one named by `version`.',
        params: PlanPath,
        querystring: VersionPageQuery,
        response: { 200: PlanPriceList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query);
      const { count, results } = await prices.list(scopeOf(request), request.params.identifier, request.query.version, at);
      return pageOf(request, at, count, results);
    },
  );

  app.post(
    '/api/v1/catalog/plans/:identifier/prices/bulk/',
    {
      config: auth,
      schema: {
        tags,
        summary: "Replace a plan's prices",
        description: `Replaces every price at once: if any price is invalid, nothing changes. ${DRAFT_RULE}`,
        params: PlanPath,
        body: PlanPricesBulk,
        response: { 200: PlanPricesResult, ...errors },
      },
      preValidation: refuseVersion(ON_NEWEST),
    },
    async (request, reply) => prices.replace(scopeOf(request), request.params.identifier, request.body.prices, answerKeeper(request, reply, 200)),
  );
  currencyPriceRoutes(app, prices);
}

/** One currency's price at a time (decision 0086): the dashboard's price editor, without resending the others. */
function currencyPriceRoutes(app: App, prices: PlanRouteDeps['prices']): void {
  const tags = ['Plans'];
  app.put(
    '/api/v1/catalog/plans/:identifier/prices/:currency/',
    {
      config: auth,
      schema: {
        tags,
        summary: "Set a plan's price in one currency",
        description: `Ours: sets the price of the currency in the path (as one entry of prices/bulk/, without \`currency\`) and keeps the other currencies' prices. ${DRAFT_RULE}`,
        params: PlanCurrencyPath,
        body: PlanCurrencyPriceInput,
        response: { 200: PlanPricesResult, ...errors },
      },
      preValidation: refuseVersion(ON_NEWEST),
    },
    async (request, reply) => prices.setCurrency(scopeOf(request), request.params.identifier, request.params.currency, request.body, answerKeeper(request, reply, 200)),
  );
  app.delete(
    '/api/v1/catalog/plans/:identifier/prices/:currency/',
    {
      config: auth,
      schema: {
        tags,
        summary: "Remove a plan's price in one currency",
        description: `Ours: the other currencies' prices stay; 404 when the plan has no price in it. ${DRAFT_RULE}`,
        params: PlanCurrencyPath,
        response: { 200: PlanPricesResult, ...errors },
      },
      preValidation: refuseVersion(ON_NEWEST),
    },
    async (request, reply) => prices.setCurrency(scopeOf(request), request.params.identifier, request.params.currency, null, answerKeeper(request, reply, 200)),
  );
}

function entitlementRoutes(app: App, { entitlements }: PlanRouteDeps): void {
  const tags = ['Plan Entitlements'];
  app.get(
    '/api/v1/catalog/plans/:identifier/features/',
    {
      config: readAuth,
      schema: {
        tags,
        summary: "List a plan's entitlements",
        params: PlanPath,
        querystring: VersionPageQuery,
        response: { 200: PlanEntitlementList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query);
      const { count, results } = await entitlements.list(
        scopeOf(request),
        request.params.identifier,
        request.query.version,
        at,
      );
      return pageOf(request, at, count, results);
    },
  );

  app.post(
    '/api/v1/catalog/plans/:identifier/features/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Add entitlements to a plan',
        description: `Details are checked against the feature type: BOOLEAN takes a true/false value; METER and CUSTOMIZABLE take a number of at least 0, or hasUnlimitedUsage. ${DRAFT_RULE}`,
        params: PlanPath,
        body: PlanEntitlementsCreate,
        response: { 201: Plan, ...errors },
      },
      preValidation: refuseVersion(ON_NEWEST),
    },
    async (request, reply) =>
      reply.code(201).send(await entitlements.add(scopeOf(request), request.params.identifier, request.body, answerKeeper(request, reply, 201))),
  );

  app.patch(
    '/api/v1/catalog/plans/:identifier/features/:feature_id/',
    {
      config: auth,
      schema: {
        tags,
        summary: "Update one entitlement's details",
        description: `feature_id is the feature's identifier. Only the detail fields given change; the others keep their values. ${DRAFT_RULE}`,
        params: PlanFeaturePath,
        body: PlanEntitlementPatch,
        response: { 200: PlanEntitlementUpdated, ...errors },
      },
      preValidation: refuseVersion(ON_NEWEST),
    },
    async (request) =>
      entitlements.patch(scopeOf(request), request.params.identifier, request.params.feature_id, request.body.details),
  );

  app.delete(
    '/api/v1/catalog/plans/:identifier/features/:feature_id/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Remove an entitlement',
        description: DRAFT_RULE,
        params: PlanFeaturePath,
        response: { 204: NoContent, ...errors },
      },
      preValidation: refuseVersion(ON_NEWEST),
    },
    async (request, reply) => {
      await entitlements.remove(scopeOf(request), request.params.identifier, request.params.feature_id);
      return reply.code(204).send(null);
    },
  );
}

function fileRoutes(app: App, { plans, publicUrl }: PlanRouteDeps): void {
  const tags = ['Plan Files'];
  app.patch(
    '/api/v1/catalog/plans/:identifier/file/:pk/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Update a plan file',
        description: DRAFT_RULE,
        params: PlanFilePath,
        body: PlanFileUpdate,
        response: { 200: PlanFile, ...errors },
      },
      preValidation: refuseVersion(ON_NEWEST),
    },
    async (request) => plans.updateFile(scopeOf(request), request.params.identifier, request.params.pk, request.body),
  );

  app.delete(
    '/api/v1/catalog/plans/:identifier/file/:pk/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Remove a plan file',
        description: DRAFT_RULE,
        params: PlanFilePath,
        response: { 204: NoContent, ...errors },
      },
      preValidation: refuseVersion(ON_NEWEST),
    },
    async (request, reply) => {
      await plans.deleteFile(scopeOf(request), request.params.identifier, request.params.pk);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/catalog/plans/:identifier/file/:pk/download/',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Download a plan file',
        description: 'Needs no key: redirects (302) to a link that serves the file as a download for a few minutes.',
        security: [],
        params: PlanFilePath,
        response: { 302: Type.Null(), 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const location = await plans.downloadLocation(
        request.environment,
        rootUrl(request, publicUrl),
        request.params.identifier,
        request.params.pk,
      );
      return reply.redirect(location, 302);
    },
  );
}

export function planRoutes(app: App, deps: PlanRouteDeps): void {
  planRoutesProper(app, deps);
  priceRoutes(app, deps);
  entitlementRoutes(app, deps);
  fileRoutes(app, deps);
}
