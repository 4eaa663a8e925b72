import { type DomainError, forbidden, invalid } from '../../lib/domain-error.js';

const invalidQuery = (detail: string): DomainError => invalid(`query parameter ${detail}`, 'validation_error');

export const invalidCurrencyCode = (raw: string | undefined): DomainError =>
  invalidQuery(`currency_code: "${raw}" is not an ISO 4217 currency code`);
export const invalidIpAddress = (raw: string): DomainError =>
  invalidQuery(`ip_address: "${raw}" is not an IPv4 or IPv6 address`);
export const invalidCountry = (raw: string): DomainError => invalidQuery(`country: "${raw}" is not an ISO 3166-1 alpha-2 country code`);
export const countryAndAddress = (): DomainError =>
  invalidQuery('country: give a country or an ip_address to price the offering for, not both');
export const countryNeedsServerKey = (): DomainError =>
  forbidden('The query parameter country previews another country\'s prices: it needs a server key (a client key is priced where its request comes from)');
