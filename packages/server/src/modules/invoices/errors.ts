import { invalid, notFound } from '../../lib/domain-error.js';

export const invoiceNotFound = (id: string) => notFound(`No invoice with id "${id}"`, 'invoice_not_found');
/** The attempt was made and recorded (the invoice shows it); the card did not pay. */
export const invoiceNotPaid = (code: string | null, message: string | null) =>
  invalid(message ?? 'The invoice could not be paid', code ?? 'payment_failed');
