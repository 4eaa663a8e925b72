import {
  ErrorBody,
  PartnerOrganization,
  PartnerOrganizationCreate,
  PartnerOrganizationList,
  PartnerOrganizationListQuery,
  PartnerExternalIdPath,
  PartnerOrganizationPath,
} from '@billow/contract';
import type { App } from '../../http/route-types.js';
import type { PartnerService } from './service.js';
import { answerKeeper } from '../../http/idempotency.js';

const tags = ['Partner provisioning'];
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };
const security = [{ partnerKey: [] }];

function partnerOf(request: { partner: { partnerId: string } | null }): string {
  if (!request.partner) throw new Error('partner route without partner authentication');
  return request.partner.partnerId;
}

export function partnerRoutes(app: App, service: PartnerService): void {
  app.post(
    '/api/v1/partner/organizations/',
    {
      config: { auth: 'partner', secretFields: ['serverKey', 'clientKey', 'sandboxServerKey', 'sandboxClientKey'] },
      schema: {
        tags,
        security,
        summary: 'Provision an organization',
        description:
          'Creates an organization with sandbox and production environments. The keys are shown in this response only; a replay of the same Idempotency-Key answers with them as null.',
        body: PartnerOrganizationCreate,
        response: { 201: PartnerOrganization, ...errors, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.code(201).send(await service.provision(partnerOf(request), request.body, answerKeeper(request, reply, 201))),
  );

  app.get(
    '/api/v1/partner/organizations/',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        security,
        summary: 'List provisioned organizations',
        querystring: PartnerOrganizationListQuery,
        response: { 200: PartnerOrganizationList, ...errors },
      },
    },
    async (request) => service.list(partnerOf(request), request.query.external_id),
  );

  app.get(
    '/api/v1/partner/organizations/by-external-id/:externalId/',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        security,
        summary: "Retrieve a provisioned organization by the partner's externalId",
        params: PartnerExternalIdPath,
        response: { 200: PartnerOrganization, ...errors },
      },
    },
    async (request) => service.getByExternalId(partnerOf(request), request.params.externalId),
  );

  app.get(
    '/api/v1/partner/organizations/:identifier/',
    {
      config: { auth: 'partner' },
      schema: {
        tags,
        security,
        summary: 'Retrieve a provisioned organization',
        params: PartnerOrganizationPath,
        response: { 200: PartnerOrganization, ...errors },
      },
    },
    async (request) => service.get(partnerOf(request), request.params.identifier),
  );
}
