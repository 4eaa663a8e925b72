import { type DomainError, invalid } from '../../lib/domain-error.js';

const invalidQuery = (detail: string): DomainError => invalid(`query parameter ${detail}`, 'validation_error');

export const invalidCurrencyCode = (raw: string | undefined): DomainError =>
  invalidQuery(`currency_code: "${raw}" is not an ISO 4217 currency code`);
export const invalidIpAddress = (raw: string): DomainError =>
  invalidQuery(`ip_address: "${raw}" is not an IPv4 or IPv6 address`);
