import { DomainError, invalid, conflict, notFound } from '../../lib/domain-error.js';
import { isPaymentInProgress } from '../intents/errors.js';

export const subscriptionNotFound = (): DomainError => notFound('Subscription not found.', 'subscription_not_found');
export const unknownStatusFilter = (status: string, known: readonly string[]): DomainError =>
  invalid(`query parameter status: "${status}" is not one of ${known.join(', ')}`, 'validation_error');
export const customerFilterMissing = (): DomainError =>
  invalid('query parameter customer_id is required', 'validation_error');
export const planVersionWithoutPlan = (): DomainError =>
  invalid('query parameter plan_version needs plan: name the plan whose version to list', 'validation_error');
export const planUnknown = (plan: string): DomainError => notFound(`No plan "${plan}"`, 'plan_not_found');
export const createNotRecurring = (chargePeriod: string): DomainError =>
  invalid(`chargePeriod ${chargePeriod} is not recurring; one-time purchases use POST /charges/`, 'invalid_charge_period');
export const notCancellable = (status: string): DomainError =>
  invalid(`The subscription is ${status} and can't be cancelled`, 'not_cancellable');
export const cancellationDateMissing = (): DomainError =>
  invalid('cancellationDate (yyyy-MM-dd) is required for SPECIFIC_DATE', 'validation_error');
export const cancellationDateInvalid = (): DomainError => invalid('cancellationDate is not a date', 'validation_error');
export const cancellationDateInPast = (): DomainError => invalid('cancellationDate is in the past', 'validation_error');
export const updateInProgress = (): DomainError =>
  invalid('The subscription already has a pending or applied change', 'update_in_progress');

export const notUpdatable = (status: string): DomainError =>
  invalid(`The subscription is ${status}; only an active or trialing subscription can change`, 'not_updatable');
export const oneTimePurchaseNotUpdatable = (): DomainError =>
  invalid(
    'A one-time purchase does not change plan or period; sell the new plan with POST /subscriptions/create/ or POST /charges/',
    'not_updatable',
  );
export const changeNotRecurring = (chargePeriod: string): DomainError =>
  invalid(`chargePeriod ${chargePeriod} is not recurring`, 'invalid_charge_period');
export const unsupportedPaymentBehavior = (): DomainError =>
  invalid('paymentBehavior may only be activate_on_payment', 'validation_error');
export const invalidTrialEnd = (): DomainError =>
  invalid('trialEnd must be "now" or a date-time in the future', 'validation_error');
const NOT_DUE = 'renewal_not_due';
export const renewalNotDue = (): DomainError =>
  conflict('The subscription is no longer due for this renewal; it was renewed, changed or ended meanwhile', NOT_DUE);
/** An answer that means "not now": the item was done meanwhile, or another payment of the customer is under way. */
export const isNotNow = (error: unknown): boolean => (error instanceof DomainError && error.code === NOT_DUE) || isPaymentInProgress(error);
export const invoiceNotFound = (invoiceId: string): DomainError => notFound(`No invoice "${invoiceId}"`, 'invoice_not_found');
export const invoiceNotPayable = (invoiceId: string, status: string): DomainError =>
  invalid(`Invoice ${invoiceId} is ${status}; only an unpaid renewal invoice can be paid`, 'invoice_not_payable');
export const invoicePaymentFailed = (code: string, detail: string): DomainError => invalid(detail, code);
export const noUpcomingInvoice = (status: string): DomainError =>
  invalid(
    `The subscription is ${status} and will not renew (it ended, ends before its period does, or is a one-time purchase)`,
    'no_upcoming_invoice',
  );
/** The renewal's plan records no invoice: a trial that ends with no way to pay, or an end with nothing to bill. */
export const noInvoiceComing = (action: 'renew' | 'end_trial' | 'end', at: Date): DomainError =>
  invalid(
    action === 'end_trial'
      ? `The trial ends at ${at.toISOString()} and the customer has no payment method that can be charged: the subscription ends then, and no invoice comes`
      : `The subscription ends at ${at.toISOString()} with no usage to bill for its last period: no invoice comes`,
    'no_upcoming_invoice',
  );
/** The activate_on_payment change was paid, expired or ended meanwhile: its payment is no longer taken. */
export const changeNoLongerPending = (status: string): DomainError =>
  conflict(`This plan change is no longer waiting for its payment (it is ${status}).`, 'change_not_pending');
export const notResumable = (): DomainError =>
  invalid('The subscription has no cancellation waiting to take effect', 'not_resumable');
