import { conflict, invalid, notFound } from '../../lib/domain-error.js';

export const apiKeyNotFound = (prefix: string) => notFound(`No API key ${prefix} in this environment`, 'api_key_not_found');
export const apiKeyAlreadyRevoked = (prefix: string) => conflict(`The API key ${prefix} is already revoked`, 'api_key_revoked');
export const ownKeyRevoked = (prefix: string) =>
  invalid(`The API key ${prefix} makes this request: revoke it with another key, or from the dashboard`, 'api_key_in_use');
