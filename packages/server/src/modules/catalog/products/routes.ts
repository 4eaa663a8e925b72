import type { FastifyRequest } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import {
  CatalogListQuery,
  ErrorBody,
  ProductCreate,
  ProductFile,
  ProductFileUpdate,
  ProductImage,
  ProductImageUpdate,
  ProductList,
  ProductSettings,
  ProductSettingsUpdate,
  ProductUpdate,
  ProductWithPlans,
  ProductPath,
  ProductImagePath,
  ProductFilePath,
  NoContent,
} from '@billow/contract';
import { CATALOG_PAGE_SIZE, pageOf, pageRequest } from '../../../http/pagination.js';
import { SERVER_ONLY, SERVER_OR_CLIENT, type App } from '../../../http/route-types.js';
import type { ProductService } from './service.js';
import { answerKeeper } from '../../../http/idempotency.js';
import { scopeOf } from '../../../http/scope.js';
import { rootUrl } from '../../../http/urls.js';

const tags = ['Products'];
/** Reads are open to client keys, for pricing pages in the browser; writes need a server key. */
const readAuth = { auth: SERVER_OR_CLIENT };
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const auth = { auth: SERVER_ONLY };

export function productRoutes(app: App, service: ProductService, publicUrl: string | null): void {
  productFileRoutes(app, service, publicUrl);
  app.get(
    '/api/v1/catalog/products/',
    {
      config: readAuth,
      schema: {
        tags,
        summary: 'List products',
        description: 'Newest first; archived products are left out. `search` matches name, identifier and description.',
        querystring: CatalogListQuery,
        response: { 200: ProductList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query, CATALOG_PAGE_SIZE);
      const { count, results } = await service.list(scopeOf(request), request.query.search, at);
      return pageOf(request, at, count, results);
    },
  );

  app.post(
    '/api/v1/catalog/products/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Create a product',
        description: 'Without an identifier, one is made from the name. imageKeys come from POST /media/.',
        body: ProductCreate,
        response: { 201: ProductWithPlans, ...errors, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(scopeOf(request), request.body, answerKeeper(request, reply, 201))),
  );

  app.get(
    '/api/v1/catalog/products/:pk/',
    {
      config: readAuth,
      schema: {
        tags,
        summary: 'Retrieve a product by id or identifier',
        description: '`plans` lists the identifiers of its published, non-archived plans.',
        params: ProductPath,
        response: { 200: ProductWithPlans, ...errors },
      },
    },
    async (request) => service.get(scopeOf(request), request.params.pk),
  );

  app.patch(
    '/api/v1/catalog/products/:pk/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Update a product',
        description: 'imageKeys are appended to the images it has (at most 10 in all); fileKeys to its downloadable files (`files`).',
        params: ProductPath,
        body: ProductUpdate,
        response: { 200: ProductWithPlans, ...errors },
      },
    },
    async (request) => service.update(scopeOf(request), request.params.pk, request.body),
  );

  app.delete(
    '/api/v1/catalog/products/:pk/',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Archive a product',
        description: 'Its plans leave the plan list; existing subscribers keep what they have.',
        params: ProductPath,
        response: { 204: NoContent, ...errors },
      },
    },
    async (request, reply) => {
      await service.archive(scopeOf(request), request.params.pk);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/catalog/products/:pk/settings/',
    {
      config: readAuth,
      schema: {
        tags: ['Product Settings'],
        summary: "Retrieve a product's settings",
        params: ProductPath,
        response: { 200: ProductSettings, ...errors },
      },
    },
    async (request) => service.settings(scopeOf(request), request.params.pk),
  );

  app.patch(
    '/api/v1/catalog/products/:pk/settings/',
    {
      config: auth,
      schema: {
        tags: ['Product Settings'],
        summary: "Update a product's settings",
        params: ProductPath,
        body: ProductSettingsUpdate,
        response: { 200: ProductSettings, ...errors },
      },
    },
    async (request) => service.updateSettings(scopeOf(request), request.params.pk, request.body),
  );

  uploadEditRoutes(app, {
    segment: 'image',
    noun: 'image',
    body: ProductImageUpdate,
    answer: ProductImage,
    updateDescription: 'A product has one thumbnail: making an image the thumbnail clears the others.',
    deleteDescription: 'Removes the image record and its stored file for good.',
    update: (request) => service.updateImage(scopeOf(request), request.params.product_pk, request.params.pk, request.body as ProductImageUpdate),
    remove: (request) => service.deleteImage(scopeOf(request), request.params.product_pk, request.params.pk),
  });
}

type EditRequest = FastifyRequest<{ Params: Static<typeof ProductImagePath>; Body: unknown }>;

/** PATCH and DELETE of one of a product's images or files, at `/catalog/products/{product_pk}/{segment}/{pk}/`. */
function uploadEditRoutes(
  app: App,
  spec: {
    segment: 'image' | 'file';
    noun: string;
    body: TSchema;
    answer: TSchema;
    updateDescription: string;
    deleteDescription: string;
    update(request: EditRequest): Promise<unknown>;
    remove(request: EditRequest): Promise<void>;
  },
): void {
  const path = `/api/v1/catalog/products/:product_pk/${spec.segment}/:pk/`;
  const schema = { tags: ['Product Files'], params: ProductImagePath };
  app.patch(
    path,
    {
      config: auth,
      schema: { ...schema, summary: `Update a product ${spec.noun}`, description: spec.updateDescription, body: spec.body, response: { 200: spec.answer, ...errors } },
    },
    async (request) => spec.update(request as EditRequest),
  );
  app.delete(
    path,
    {
      config: auth,
      schema: { ...schema, summary: `Delete a product ${spec.noun}`, description: spec.deleteDescription, response: { 204: NoContent, ...errors } },
    },
    async (request, reply) => {
      await spec.remove(request as EditRequest);
      return reply.code(204).send(null);
    },
  );
}

function productFileRoutes(app: App, service: ProductService, publicUrl: string | null): void {
  uploadEditRoutes(app, {
    segment: 'file',
    noun: 'file',
    body: ProductFileUpdate,
    answer: ProductFile,
    updateDescription:
      'Billow extension (decision 0095): renames, reorders, or turns off (`enabled: false`: its download link answers 404) a downloadable file. The bytes cannot be replaced: upload a new file.',
    deleteDescription: 'Billow extension (decision 0095): removes the file record and its stored bytes for good; its download link answers 404.',
    update: (request) => service.updateFile(scopeOf(request), request.params.product_pk, request.params.pk, request.body as ProductFileUpdate),
    remove: (request) => service.deleteFile(scopeOf(request), request.params.product_pk, request.params.pk),
  });

  app.get(
    '/api/v1/catalog/products/:product_pk/file/:pk/download/',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['Product Files'],
        summary: 'Download a product file',
        description: 'Needs no key: redirects (302) to a link that serves the file as a download for a few minutes.',
        security: [],
        params: ProductFilePath,
        response: { 302: Type.Null(), 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const { product_pk: productId, pk } = request.params;
      const location = await service.fileDownloadLocation(request.environment, rootUrl(request, publicUrl), productId, pk);
      return reply.redirect(location, 302);
    },
  );
}
