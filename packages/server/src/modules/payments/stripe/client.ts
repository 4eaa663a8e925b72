import Stripe from 'stripe';

/** How long one call to Stripe may take before it is given up (and retried by the library). */
const TIMEOUT_MS = 30_000;

/**
 * A client of Stripe's official library for one seller's secret key. `apiUrl` points it
 * at another host (tests' local stand-in, BILLOW_STRIPE_API_URL); null: Stripe itself.
 * The library retries failed network calls with the same idempotency key.
 */
export function stripeClient(secretKey: string, apiUrl: URL | null): Stripe {
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: TIMEOUT_MS,
    telemetry: false,
    appInfo: { name: 'Billow' },
    ...(apiUrl
      ? {
          host: apiUrl.hostname,
          port: apiUrl.port || (apiUrl.protocol === 'https:' ? 443 : 80),
          protocol: apiUrl.protocol === 'https:' ? ('https' as const) : ('http' as const),
        }
      : {}),
  });
}

export type { Stripe };
