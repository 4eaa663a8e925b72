import {
  CatalogListQuery,
  ErrorBody,
  Feature,
  FeatureCreate,
  FeatureList,
  FeaturePath,
  FeatureUpdate,
  NoContent,
} from '@billow/contract';
import { CATALOG_PAGE_SIZE, pageOf, pageRequest } from '../../../http/pagination.js';
import { SERVER_ONLY, SERVER_OR_CLIENT, type App } from '../../../http/route-types.js';
import type { FeatureService } from './service.js';
import { answerKeeper } from '../../../http/idempotency.js';
import { scopeOf } from '../../../http/scope.js';

const tags = ['Features'];
/** Reads are open to client keys, for pricing pages in the browser; writes need a server key. */
const readAuth = { auth: SERVER_OR_CLIENT };
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

export function featureRoutes(app: App, service: FeatureService): void {
  app.get(
    '/api/v1/catalog/features/',
    {
      config: readAuth,
      schema: {
        tags,
        summary: 'List features',
        description: 'Archived features are left out. `search` matches name, identifier and description.',
        querystring: CatalogListQuery,
        response: { 200: FeatureList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query, CATALOG_PAGE_SIZE);
      const { count, results } = await service.list(scopeOf(request), request.query.search, at);
      return pageOf(request, at, count, results);
    },
  );

  app.post(
    '/api/v1/catalog/features/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Create a feature',
        description:
          'BOOLEAN: on or off. CUSTOMIZABLE: a number per plan. METER: a counted quantity, which needs featureDetails.featureSubType and featureDetails.units. Identifier and type never change.',
        body: FeatureCreate,
        response: { 201: Feature, ...errors, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(scopeOf(request), request.body, answerKeeper(request, reply, 201))),
  );

  app.get(
    '/api/v1/catalog/features/:pk/',
    {
      config: readAuth,
      schema: {
        tags,
        summary: 'Retrieve a feature by id or identifier',
        params: FeaturePath,
        response: { 200: Feature, ...errors },
      },
    },
    async (request) => service.get(scopeOf(request), request.params.pk),
  );

  app.patch(
    '/api/v1/catalog/features/:pk/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Update a feature (Billow extension)',
        description:
          "Renames a feature, or changes its description or metadata (given metadata replaces the whole map). Its identifier, type and meter never change. Entitlement checks name features by identifier, so their answers do not change. The reference defines this body (FeatureUpdateRequest) without a path; Billow serves it here.",
        params: FeaturePath,
        body: FeatureUpdate,
        response: { 200: Feature, ...errors },
      },
    },
    async (request) => service.update(scopeOf(request), request.params.pk, request.body),
  );

  app.delete(
    '/api/v1/catalog/features/:pk/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Archive a feature',
        description: 'Plans that grant it keep working; it can no longer be added to plans.',
        params: FeaturePath,
        response: { 204: NoContent, ...errors },
      },
    },
    async (request, reply) => {
      await service.archive(scopeOf(request), request.params.pk);
      return reply.code(204).send(null);
    },
  );
}
