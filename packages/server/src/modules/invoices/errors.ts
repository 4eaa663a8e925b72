import { notFound } from '../../http/errors.js';

export const invoiceNotFound = (id: string) => notFound(`No invoice with id "${id}"`, 'invoice_not_found');
