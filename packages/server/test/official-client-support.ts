import { ApiError, Kelviq } from '@kelviq/node-sdk';
import { expect } from 'vitest';
import { prefixOf, type TestServer } from './harness.js';

/** The official client (@kelviq/node-sdk) configured as a user would: host root in both URLs, environment named. */
export function officialClient(server: TestServer, accessToken: string, environment: 'sandbox' | 'production' = 'sandbox'): Kelviq {
  const root = `${server.url}${prefixOf(environment)}`;
  return new Kelviq({ accessToken, environment, baseUrl: root, edgeApiUrl: root, logger: false });
}

/** Resolves to the error a promise rejects with; fails the test when it resolves. */
export async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the call to fail, but it succeeded');
}
