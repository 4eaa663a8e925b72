import { DomainError, invalid, conflict, notFound } from '../../lib/domain-error.js';

export const customerNotFound = (customerId: string) =>
  notFound(`No customer with customerId "${customerId}"`, 'customer_not_found');
export const customerExists = (customerId: string) =>
  conflict(`A customer with customerId "${customerId}" already exists`, 'customer_exists');
export const customerIdRetired = (customerId: string) =>
  conflict(
    `The customerId "${customerId}" belonged to a customer that was archived; a customerId is never reused`,
    'customer_exists',
  );
export const customerArchived = (customerId: string): DomainError =>
  invalid(`The customer "${customerId}" is archived and can't be changed`, 'customer_archived');
export const customerIdUnaddressable = (customerId: string): DomainError =>
  invalid(
    `customerId "${customerId}" can't be used in a URL path: it may not be "." or "..", nor contain /, ?, # or %`,
    'validation_error',
  );
export const customerHasSubscriptions = (customerId: string, count: number): DomainError =>
  invalid(
    `The customer "${customerId}" has ${count === 1 ? 'an active subscription' : `${count} active subscriptions`}, ` +
      'and a customer with an active subscription can\'t be archived. Cancel the subscriptions first, ' +
      'or archive with ?cancel_subscriptions=true to cancel them immediately as part of the archive.',
    'customer_has_active_subscriptions',
  );
export const customerAlreadyArchived = (customerId: string): DomainError =>
  invalid(`The customer "${customerId}" is already archived`, 'customer_archived');
export const invalidLocale = (locale: string): DomainError =>
  invalid(`locale: "${locale}" is not a language tag (such as de, fr-CA or ja)`, 'validation_error');
export const invalidMetadata = (problem: string): DomainError => invalid(problem, 'validation_error');
export const invalidCountry = (country: string): DomainError =>
  invalid(`billingAddress.country: "${country}" is not an ISO 3166-1 alpha-2 country code`, 'validation_error');
export const testClocksSandboxOnly = (): DomainError =>
  new DomainError('forbidden', 'test_clocks_sandbox_only', 'Test clocks exist in the sandbox only; production customers live in real time');
export const testClockUnknown = (testClockId: string): DomainError =>
  invalid(`testClockId: no test clock "${testClockId}" in this environment`, 'test_clock_not_found');
export const testClockFull = (testClockId: string, max: number): DomainError =>
  invalid(`Test clock "${testClockId}" has ${max} customers already, the most one clock takes`, 'test_clock_full');
export const testClockNotFound = (testClockId: string): DomainError => notFound(`No test clock "${testClockId}" in this environment`, 'test_clock_not_found');
export const customerOnTestClock = (customerId: string, testClockId: string): DomainError =>
  conflict(`The customer "${customerId}" lives by test clock "${testClockId}" already; a customer never changes clocks`, 'customer_on_test_clock');
export const customerHasAnySubscription = (customerId: string): DomainError =>
  conflict(
    `The customer "${customerId}" has subscriptions, billed in real time so far; only a customer without any subscription moves onto a test clock. Create a new customer on the clock instead`,
    'customer_has_subscriptions',
  );
export const clockBeforeCustomer = (customerId: string, createdOn: string): DomainError =>
  conflict(`The test clock stands before the customer "${customerId}" was created (${createdOn}); a customer's time never goes back`, 'test_clock_before_customer');
export const clockAdvancing = (testClockId: string): DomainError =>
  conflict(`Test clock "${testClockId}" is advancing; wait until its status is ready`, 'test_clock_advancing');
/** Why a tax id was refused, with what the buyer typed: pages word it in the buyer's language from these, not from `detail`. */
export class TaxIdRefused extends DomainError {
  constructor(
    detail: string,
    readonly reason: 'not_valid' | 'no_country' | 'type_twice' | 'unknown_to_register',
    readonly value: string | null,
    readonly country: string | null,
  ) {
    super('invalid', 'invalid_tax_id', detail);
  }
}
export const invalidTaxId = (at: string, value: string, country: string, problem: string): DomainError =>
  new TaxIdRefused(`${at}: "${value}" is not a valid tax id of ${country} (${problem})`, 'not_valid', value, country);
export const taxIdWithoutCountry = (at: string, value: string): DomainError =>
  new TaxIdRefused(`${at}: give the country of "${value}" (or its type, or a billing address country)`, 'no_country', value, null);
export const taxIdTypeTwice = (type: string): DomainError =>
  new TaxIdRefused(`taxIds: two ${type} ids; give at most one of each type`, 'type_twice', null, null);
export const taxIdUnknownToRegister = (at: string, value: string): DomainError =>
  new TaxIdRefused(`${at}: "${value}" is not a VAT id the EU's register (VIES) knows as valid`, 'unknown_to_register', value, null);
export const taxIdCountryUnknown = (at: string, country: string): DomainError =>
  invalid(`${at}.country: "${country}" is not an ISO 3166-1 alpha-2 country code`, 'validation_error');
