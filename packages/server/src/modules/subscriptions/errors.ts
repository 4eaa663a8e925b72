import { type ApiError, badRequest, conflict, notFound } from '../../http/errors.js';

export const subscriptionNotFound = (): ApiError => notFound('Subscription not found.', 'subscription_not_found');
export const unknownStatusFilter = (status: string, known: readonly string[]): ApiError =>
  badRequest(`query parameter status: "${status}" is not one of ${known.join(', ')}`, 'validation_error');
export const customerFilterMissing = (): ApiError =>
  badRequest('query parameter customer_id is required', 'validation_error');
export const createNotRecurring = (chargePeriod: string): ApiError =>
  badRequest(`chargePeriod ${chargePeriod} is not recurring; one-time purchases use POST /charges/`, 'invalid_charge_period');
export const notCancellable = (status: string): ApiError =>
  badRequest(`The subscription is ${status} and can't be cancelled`, 'not_cancellable');
export const cancellationDateMissing = (): ApiError =>
  badRequest('cancellationDate (yyyy-MM-dd) is required for SPECIFIC_DATE', 'validation_error');
export const cancellationDateInvalid = (): ApiError => badRequest('cancellationDate is not a date', 'validation_error');
export const cancellationDateInPast = (): ApiError => badRequest('cancellationDate is in the past', 'validation_error');
export const updateInProgress = (): ApiError =>
  badRequest('The subscription already has a pending or applied change', 'update_in_progress');

export const notUpdatable = (status: string): ApiError =>
  badRequest(`The subscription is ${status}; only an active or trialing subscription can change`, 'not_updatable');
export const oneTimePurchaseNotUpdatable = (): ApiError =>
  badRequest(
    'A one-time purchase does not change plan or period; sell the new plan with POST /subscriptions/create/ or POST /charges/',
    'not_updatable',
  );
export const changeNotRecurring = (chargePeriod: string): ApiError =>
  badRequest(`chargePeriod ${chargePeriod} is not recurring`, 'invalid_charge_period');
export const unsupportedPaymentBehavior = (): ApiError =>
  badRequest('paymentBehavior may only be activate_on_payment', 'validation_error');
export const invalidTrialEnd = (): ApiError =>
  badRequest('trialEnd must be "now" or a date-time in the future', 'validation_error');
export const renewalNotDue = (): ApiError =>
  conflict('The subscription is no longer due for this renewal; it was renewed, changed or ended meanwhile', 'renewal_not_due');
export const invoiceNotFound = (invoiceId: string): ApiError => notFound(`No invoice "${invoiceId}"`, 'invoice_not_found');
export const invoiceNotPayable = (invoiceId: string, status: string): ApiError =>
  badRequest(`Invoice ${invoiceId} is ${status}; only an unpaid renewal invoice can be paid`, 'invoice_not_payable');
export const invoicePaymentFailed = (code: string, detail: string): ApiError => badRequest(detail, code);
export const noUpcomingInvoice = (status: string): ApiError =>
  badRequest(
    `The subscription is ${status} and will not renew (it ended, ends before its period does, or is a one-time purchase)`,
    'no_upcoming_invoice',
  );
/** The activate_on_payment change was paid, expired or ended meanwhile: its payment is no longer taken. */
export const changeNoLongerPending = (status: string): ApiError =>
  conflict(`This plan change is no longer waiting for its payment (it is ${status}).`, 'change_not_pending');
export const notResumable = (): ApiError =>
  badRequest('The subscription has no cancellation waiting to take effect', 'not_resumable');
