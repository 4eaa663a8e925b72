import { Type } from 'typebox';
import { DocumentQuery, ErrorBody, Invoice, InvoiceList, InvoiceListQuery, InvoicePath, INVOICE_SORTS } from '@billow/contract';
import { listOrder, pageOf, pageRequest } from '../../http/pagination.js';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import type { InvoiceService } from './service.js';
import { scopeOf, type RequestScope } from '../../http/scope.js';
import { invoiceNotPaid } from './errors.js';

const tags = ['Invoices'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** Only characters a quoted header parameter can carry. */
const safeFileName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_');

/** Collects an unpaid renewal invoice now (the billing engine's dunning attempt, asked for by hand). */
export type InvoiceCollector = (
  scope: Pick<RequestScope, 'organizationId' | 'environmentId' | 'environment'>,
  invoiceId: string,
) => Promise<{ outcome: 'paid' | 'failed' | 'ended'; code: string | null; message: string | null }>;

export function invoiceRoutes(app: App, service: InvoiceService, collect: InvoiceCollector): void {
  app.post(
    '/api/v1/invoices/:id/pay/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Pay an unpaid renewal invoice now',
        description:
          "Ours. Charges the customer's default payment method (else the subscription's) for an OPEN or PAYMENT_FAILED " +
          'renewal invoice. Paid, the invoice is answered and a past_due subscription is active again; refused, the attempt ' +
          'is counted on the invoice and the answer is 400 with the reason (card_declined, insufficient_funds, ...).',
        params: InvoicePath,
        response: { 200: Invoice, ...errors, 409: ErrorBody, 428: ErrorBody },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      // A keyed retry of a run that died after collecting (decision 0051): the invoice it paid is the first run's answer.
      if (request.idempotency?.resumedSince) {
        const current = await service.get(scope, request.params.id);
        if (current.status === 'PAID') return current;
      }
      const result = await collect(scope, request.params.id);
      if (result.outcome !== 'paid') throw invoiceNotPaid(result.code, result.message);
      return service.get(scope, request.params.id);
    },
  );


  app.get(
    '/api/v1/invoices/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'List invoices, newest first',
        description:
          'A Billow addition: every order has an invoice. `search` matches the number and id and the customer\'s name, email and ' +
          'customerId; `sort` (issuedOn, total, number) with `order` (asc, desc) orders the whole list before it is paged.',
        querystring: InvoiceListQuery,
        response: { 200: InvoiceList, ...errors },
      },
    },
    async (request) => {
      const at = pageRequest(request.query);
      const sort = listOrder(request.query, INVOICE_SORTS, ['issuedOn', 'total']);
      const { count, capped, results } = await service.list(scopeOf(request), request.query, at, sort);
      return pageOf(request, at, count, results, capped);
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
        querystring: DocumentQuery,
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
      const { fileName, bytes } = await service.pdf(scopeOf(request), request.params.id, { language: request.query.language ?? null });
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${safeFileName(fileName)}"`)
        .header('cache-control', 'private, no-store')
        .send(bytes);
    },
  );
}
