import { DomainError, invalid, conflict, forbidden, notFound } from '../../lib/domain-error.js';

const validation = (detail: string): DomainError => invalid(detail, 'validation_error');

export const sessionNotFound = (id: string): DomainError => notFound(`No checkout session "${id}"`, 'checkout_session_not_found');
export const badUrl = (field: string): DomainError => validation(`${field}: give an absolute http or https URL`);
export const badCountry = (field: string, value: string): DomainError =>
  validation(`${field}: "${value}" is not an ISO 3166-1 alpha-2 country code`);
export const badChargePeriod = (period: string, offered: string[]): DomainError =>
  validation(
    `chargePeriod: plan has no ${period} price${offered.length > 0 ? `; it is sold ${offered.join(', ')}` : ''}`,
  );
export const featureNotPriced = (index: number, identifier: string): DomainError =>
  validation(`features[${index}].identifier: "${identifier}" is not a priced meter of this plan`);
export const featureTwice = (identifier: string): DomainError => validation(`features: "${identifier}" is given twice`);
export const planOfOtherProduct = (identifier: string): DomainError =>
  validation(`plansEnabled: plan "${identifier}" is not a plan of this product`);
export const planNotEnabled = (identifier: string): DomainError =>
  validation(`planIdentifier: "${identifier}" is not among plansEnabled`);
export const customAmountWithClientKey = (): DomainError =>
  forbidden('customAmount: a client key may not set the price; create the session with a server key');
export const customAmountNeedsTaxBehavior = (): DomainError => validation('taxBehavior: required with customAmount (INCLUSIVE or EXCLUSIVE)');
export const customAmountNeedsCurrency = (): DomainError => validation('currencyCode: required with customAmount when a server key creates the session');
export const badCustomAmount = (detail: string): DomainError => validation(`customAmount: ${detail}`);
export const customAmountWithFeatures = (): DomainError =>
  validation('features: a session with customAmount sells the plan at that amount; quantities cannot be priced with it');
export const taxBehaviorWithoutAmount = (): DomainError => validation('taxBehavior: applies to customAmount only; give customAmount too');
export const badMetadata = (problem: string): DomainError => validation(`metadata: ${problem}`);
export const badCustomerId = (customerId: string): DomainError =>
  validation(`customerId: "${customerId}" cannot be used as a customer id (no "/", "?", "#" or "%")`);
export const archivedCustomer = (customerId: string): DomainError =>
  invalid(`Customer "${customerId}" is archived; it cannot buy`, 'customer_archived');
export const discountsDisabled = (): DomainError => validation('discountCode: discountsEnabled is false for this session');
export const buyLinkProductUnknown = (): DomainError => notFound('This link names no product on sale here. Check the link, or ask the seller for a new one.', 'product_not_found');
export const buyLinkPlanMissing = (): DomainError => validation('plan_identifier: the product has no published plan to sell');
export const buyLinkForeignRedirect = (field: string, productUrl: string | null): DomainError =>
  validation(
    productUrl
      ? `${field}: a buy link may only return to the product's site (${productUrl}) or its subdomains`
      : `${field}: a buy link may only return to the product's site; the seller has set none (the product's productUrl setting)`,
  );

/** Why the hosted page's form was not accepted: shown to the buyer beside the form. */
export class FormProblem extends Error {
  constructor(
    readonly field: string | null,
    message: string,
    /** The catalogue's message for the buyer's language (page-kit/messages); the English `message` otherwise. */
    readonly key?: string,
    readonly values?: Record<string, string | number>,
  ) {
    super(message);
  }
}
export const formProblem = (field: string | null, message: string, key?: string, values?: Record<string, string | number>): FormProblem =>
  new FormProblem(field, message, key, values);

const SETTLED_MEANWHILE = 'checkout_session_settled';
/** A completer of a checkout payment found the session settled by another: the pipeline then answers with the first one's result. */
export const sessionSettledMeanwhile = (id: string): DomainError =>
  conflict(`Checkout session ${id} was completed by another submission meanwhile`, SETTLED_MEANWHILE);
export const isSessionSettledMeanwhile = (error: unknown): boolean => error instanceof DomainError && error.code === SETTLED_MEANWHILE;
/** A discountCode the discounts module refused, named as the field the caller sent. */
export const discountRefused = (refusal: DomainError): DomainError => invalid(`discountCode: ${refusal.detail}`, refusal.code);

// The discount field's JSON quote (discount-quote.ts): each answer names what the buyer can do.
/** The discount field's refusals carry the buyer's words (the page's catalogue), shown under the field as they are. */
export const quoteFormExpired = (words: string): DomainError => new DomainError('forbidden', 'checkout_form_expired', words);
export const quoteSessionClosed = (words: string): DomainError => new DomainError('gone', 'checkout_session_closed', words);
export const quoteRefused = (message: string): DomainError => new DomainError('unprocessable', 'discount_not_applied', message);
/** An invoice's payment on its page was refused (its reason as the billing engine recorded it). */
export const invoicePaymentRefused = (code: string | null, message: string | null): DomainError =>
  invalid(message ?? 'The invoice could not be paid', code ?? 'payment_failed');
