import type Stripe from 'stripe';

/** Stripe's library (some 20 MB and 70 ms to load), loaded with the first client: most installations never make one. */
let library: typeof Stripe | null = null;

/** How long one call to Stripe may take before it is given up (and retried by the library). */
const TIMEOUT_MS = 30_000;

/**
 * A client of Stripe's official library for one seller's secret key. `apiUrl` points it
 * at another host (tests' local stand-in, BILLOW_STRIPE_API_URL); null: Stripe itself.
 * The library retries failed network calls with the same idempotency key.
 */
export async function stripeClient(secretKey: string, apiUrl: URL | null): Promise<Stripe> {
  library ??= (await import('stripe')).default;
  return new library(secretKey, {
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

/**
 * Stripe's error classes, for `instanceof`. An error of Stripe's comes from a client, so the
 * library is loaded whenever one can be at hand; before that, nothing is a Stripe error.
 */
export function stripeErrors(): typeof Stripe.errors | null {
  return library?.errors ?? null;
}

export type { Stripe };
