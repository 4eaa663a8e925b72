import { Type } from 'typebox';
import { ErrorBody, Invoice, InvoiceList, InvoiceListQuery, InvoicePath } from '@billow/contract';
import { pageOf, pageRequest } from '../../http/pagination.js';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import type { LedgerScopeOf } from '../ledger/scope.js';
import type { InvoiceService } from './service.js';

const tags = ['Invoices'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** Only characters a quoted header parameter can carry. */
const safeFileName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_');

export function invoiceRoutes(app: App, service: InvoiceService, scopeOf: LedgerScopeOf): void {
  app.get(
    '/api/v1/invoices/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'List invoices, newest first',
        description: 'A Billow addition: every order has an invoice.',
        querystring: InvoiceListQuery,
        response: { 200: InvoiceList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query);
      const { count, results } = await service.list(scopeOf(request), request.query, at);
      return pageOf(request, at, count, results);
    },
  );

  app.get(
    '/api/v1/invoices/:id/',
    {
      config: { auth: SERVER_ONLY },
      schema: { tags, summary: 'Retrieve an invoice', params: InvoicePath, response: { 200: Invoice, ...errors } },
    },
    async (request) => service.get(scopeOf(request), request.params.id),
  );

  app.get(
    '/api/v1/invoices/:id/pdf/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Download an invoice as PDF',
        params: InvoicePath,
        produces: ['application/pdf', 'application/json'],
        response: {
          200: Type.Unsafe<Buffer>({
            description: 'The invoice as a PDF document',
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { fileName, bytes } = await service.pdf(scopeOf(request), request.params.id);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${safeFileName(fileName)}"`)
        .header('cache-control', 'private, no-store')
        .send(bytes);
    },
  );
}
