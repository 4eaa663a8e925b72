import { Type } from 'typebox';
import { CreditNote, CreditNoteList, CreditNoteListQuery, CreditNotePath, CREDIT_NOTE_SORTS, DocumentQuery, ErrorBody } from '@billow/contract';
import { listOrder, pageOf, pageRequest } from '../../http/pagination.js';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import type { CreditNoteService } from './service.js';

const tags = ['Credit notes'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

export function creditNoteRoutes(app: App, service: CreditNoteService): void {
  app.get(
    '/api/v1/credit-notes/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'List credit notes, newest first',
        description:
          "A Billow addition (decision 0065): a settled refund and a plan change's credit for unused time each issue a credit note " +
          'against the invoice it corrects, numbered in its own gapless sequence. Filter by customer, invoice or reason; `search` matches ' +
          "its number, its invoice's number and the customer's name, email and customerId; `sort` (issuedOn, total) with `order` (asc, desc).",
        querystring: CreditNoteListQuery,
        response: { 200: CreditNoteList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query);
      const sort = listOrder(request.query, CREDIT_NOTE_SORTS, CREDIT_NOTE_SORTS);
      const { count, results } = await service.list(scopeOf(request), request.query, at, sort);
      return pageOf(request, at, count, results);
    },
  );

  app.get(
    '/api/v1/credit-notes/:id/',
    {
      config: { auth: SERVER_ONLY },
      schema: { tags, summary: 'Retrieve a credit note', params: CreditNotePath, response: { 200: CreditNote, ...errors } },
    },
    async (request) => service.get(scopeOf(request), request.params.id),
  );

  app.get(
    '/api/v1/credit-notes/:id/pdf/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Download a credit note as PDF',
        params: CreditNotePath,
        querystring: DocumentQuery,
        produces: ['application/pdf', 'application/json'],
        response: {
          200: Type.Unsafe<Buffer>({
            description: 'The credit note as a PDF document',
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { fileName, bytes } = await service.pdf(scopeOf(request), request.params.id, { language: request.query.language ?? null });
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
        .header('cache-control', 'private, no-store')
        .send(bytes);
    },
  );
}
