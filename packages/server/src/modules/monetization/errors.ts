import { type ApiError, badRequest } from '../../http/errors.js';

const invalidQuery = (detail: string): ApiError => badRequest(`query parameter ${detail}`, 'validation_error');

export const invalidCurrencyCode = (raw: string | undefined): ApiError =>
  invalidQuery(`currency_code: "${raw}" is not an ISO 4217 currency code`);
export const invalidIpAddress = (raw: string): ApiError =>
  invalidQuery(`ip_address: "${raw}" is not an IPv4 or IPv6 address`);
