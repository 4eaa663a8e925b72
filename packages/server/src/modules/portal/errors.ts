import { DomainError } from '../../lib/domain-error.js';

/** The reference's 400 bodies of POST /portal/session/ (DOMAIN.md §2.13), with our `detail` and `code` beside them. */
const refused = (code: string, message: string) => new DomainError('invalid', code, message, { customerId: [message] });

export const portalCustomerUnknown = () => refused('invalid_customer', 'Invalid customer id');
export const portalCustomerWithoutEmail = () => refused('customer_without_email', 'Customer does not have an email');

/** Why a portal link does not open: shown on the page, never with anything of the customer. */
export class PortalAccessError extends Error {
  constructor(readonly reason: 'missing' | 'invalid' | 'expired') {
    super(`portal token ${reason}`);
  }
}

/** An object of another customer (or none at all): the page answers 404, as the API would. */
export class PortalNotFound extends Error {
  constructor(what: string) {
    super(`${what} not found`);
  }
}

/** A form without its CSRF token, or with another session's. */
export class PortalForgedForm extends Error {
  constructor() {
    super('the form is not from this portal session');
  }
}

/** An action the portal refuses with a sentence for the customer (400), nothing changed; `key`: its catalogue message (page-kit/messages). */
export class PortalRefusal extends DomainError {
  constructor(
    message: string,
    code: string,
    readonly key: string | undefined,
    readonly values: Record<string, string | number> | undefined,
  ) {
    super('invalid', code, message);
  }
}

export const portalRefusal = (message: string, code: string | null = null, key?: string, values?: Record<string, string | number>) =>
  new PortalRefusal(message, code ?? 'portal_refused', key, values);
