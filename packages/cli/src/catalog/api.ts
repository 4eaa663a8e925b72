import { Billow } from '@billow/sdk';

/** A Billow environment's API as `billow catalog` reaches it: a base URL, an environment and its server key. */

export type EnvironmentName = 'sandbox' | 'production';

export interface Target {
  baseUrl: string;
  environment: EnvironmentName;
  key: string;
}

/** Where an environment's API is: production at /api/v1, sandbox at /sandbox/api/v1. */
export function apiRoot(target: Target): string {
  return `${environmentUrl(target)}/api/v1`;
}

/** The environment's host root, as @billow/sdk takes it: the base URL, with /sandbox for sandbox. */
export function environmentUrl(target: Target): string {
  const base = target.baseUrl.replace(/\/+$/, '');
  return target.environment === 'sandbox' ? `${base}/sandbox` : base;
}

/** The environment's API through @billow/sdk: typed calls, retries and an Idempotency-Key on every POST. */
export interface Api {
  readonly target: Target;
  readonly billow: Billow;
}

export function connect(target: Target): Api {
  return { target, billow: new Billow({ apiKey: target.key, baseUrl: environmentUrl(target) }) };
}

/** Every row of a list, page after page, 100 at a time. */
export const PAGE = { page_size: 100 } as const;
