import type { EnvironmentKind } from '../../config.js';
import type { Db } from '../../db/connect.js';
import type { Executor } from '../../db/transaction.js';
import { paymentProviderRequired } from './errors.js';
import type { AttachedMethod, PaymentProvider } from './provider.js';
import { SandboxProvider } from './sandbox-provider.js';
import { stripeClient } from './stripe/client.js';
import { StripeProvider } from './stripe/provider.js';
import { findProviderConfig } from './stripe/repo.js';
import { SandboxWithStripe } from './stripe/sandbox-routing.js';
import { stripeCustomerOf } from './stripe/repo.js';
import { configureSealing, stripeSecretsOf } from './stripe/settings.js';

import { stripeCheckoutKey } from './stripe/settings.js';

export { cardDetails, luhnValid } from './cards.js';

/** The environment a payment is for. */
export interface ProviderScope {
  environmentId: string;
  environment: EnvironmentKind;
}

/** One sandbox provider per process, so that its idempotency memory spans requests. */
const builtInSandbox = new SandboxProvider();
let sandbox: PaymentProvider = builtInSandbox;
/** Per database (each server of a test process has its own): where Stripe is, and its providers by environment. */
interface StripeSetup {
  apiUrl: URL | null;
  /** Rebuilt when the environment's keys change. */
  providers: Map<string, { updatedAt: number; provider: StripeProvider }>;
}
const setups = new WeakMap<Db, StripeSetup>();

/** Set once at start (app.ts): how the database's provider secrets are sealed and where Stripe is. */
export function configureProviders(db: Db, options: { secret: string | null; stripeApiUrl: URL | null }): void {
  configureSealing(db, options.secret);
  setups.set(db, { apiUrl: options.stripeApiUrl, providers: new Map() });
}

/**
 * Puts another provider in the place of the sandbox environments' own, process-wide,
 * and returns the one it replaced: tests put doubles there that block, fail or count.
 */
export function replaceSandboxProvider(provider: PaymentProvider): PaymentProvider {
  const previous = sandbox;
  sandbox = provider;
  return previous;
}

/** The sandbox provider itself, for the steps only it offers (confirming a charge that required action). */
export function sandboxProvider(): SandboxProvider {
  return builtInSandbox;
}

async function stripeProviderOf(db: Db, environmentId: string, secretKey: string, updatedAt: Date): Promise<StripeProvider> {
  let setup = setups.get(db);
  if (!setup) {
    setup = { apiUrl: null, providers: new Map() };
    setups.set(db, setup);
  }
  const known = setup.providers.get(environmentId);
  if (known && known.updatedAt === updatedAt.getTime()) return known.provider;
  const provider = new StripeProvider(await stripeClient(secretKey, setup.apiUrl));
  setup.providers.set(environmentId, { updatedAt: updatedAt.getTime(), provider });
  return provider;
}

/**
 * The provider that moves money in an environment, or null when there is none: the
 * environment's Stripe account when one is configured (decision 0039), else the
 * built-in sandbox provider in sandbox environments, and nothing in production.
 * A sandbox with Stripe (test mode) still takes the built-in test cards saved through
 * the API. Reads the sealed keys: call it outside any transaction.
 *
 * Idempotency keys given to a provider must be unique across the installation
 * (derive them from a row id, e.g. the order's): the sandbox provider serves
 * every organization of the process.
 */
export async function paymentProviderOf(db: Db, scope: ProviderScope): Promise<PaymentProvider | null> {
  const stripe = await stripeSecretsOf(db, scope.environmentId);
  if (stripe) {
    const provider = await stripeProviderOf(db, scope.environmentId, stripe.secretKey, stripe.updatedAt);
    return scope.environment === 'sandbox' ? new SandboxWithStripe(sandbox, provider) : provider;
  }
  return scope.environment === 'sandbox' ? sandbox : null;
}

/** The environment's provider; 428 `payment_provider_required` when it has none. */
export async function requireProvider(db: Db, scope: ProviderScope): Promise<PaymentProvider> {
  const provider = await paymentProviderOf(db, scope);
  if (!provider) throw paymentProviderRequired();
  return provider;
}

/** Whether the environment can take payments, asked inside a transaction (no secret is opened): 428 when not. */
export async function assertProviderConfigured(db: Executor, scope: ProviderScope): Promise<void> {
  if (!(await providerConfigured(db, scope))) throw paymentProviderRequired();
}

/** Whether the environment can take payments (a sandbox always can). */
export async function providerConfigured(db: Executor, scope: ProviderScope): Promise<boolean> {
  return scope.environment === 'sandbox' || (await findProviderConfig(db, scope.environmentId)) !== undefined;
}


async function stripeOf(db: Db, scope: ProviderScope): Promise<StripeProvider> {
  const stripe = await stripeSecretsOf(db, scope.environmentId);
  if (!stripe) throw paymentProviderRequired();
  return stripeProviderOf(db, scope.environmentId, stripe.secretKey, stripe.updatedAt);
}

/**
 * Whether hosted pages of the environment take cards through Stripe's element, and with
 * which publishable key (null: the seller has not given it yet, so the page cannot take
 * cards); null when they do not (no Stripe, or a sandbox with Stripe but no publishable
 * key, which keeps the built-in test cards). Reads no secret.
 */
export async function stripeElementKey(db: Db, scope: ProviderScope): Promise<{ publishableKey: string | null } | null> {
  const publishableKey = await stripeCheckoutKey(db, scope.environmentId);
  if (publishableKey === undefined) return null;
  if (publishableKey === null && scope.environment === 'sandbox') return null;
  return { publishableKey };
}

/** The client secret of a PaymentIntent waiting for the buyer (Stripe.js finishes 3-D Secure with it). */
export async function stripeClientSecret(db: Db, scope: ProviderScope, paymentIntent: string): Promise<string | null> {
  return (await stripeOf(db, scope)).clientSecretOf(paymentIntent);
}

/**
 * Attaches a card the buyer entered in Stripe's element on the hosted checkout: to the
 * Stripe customer of the Billow customer when there is one (`customerPk`), else to a new
 * one keyed by `newCustomerKey`.
 */
export async function attachCheckoutStripeMethod(
  db: Db,
  scope: ProviderScope,
  buyer: { paymentMethod: string; customerPk: string | null; newCustomerKey: string; email: string | null; name: string | null },
): Promise<AttachedMethod> {
  const provider = await stripeOf(db, scope);
  return provider.attach({
    paymentMethod: buyer.paymentMethod,
    customerId: buyer.customerPk ?? buyer.newCustomerKey,
    providerCustomer: buyer.customerPk ? await stripeCustomerOf(db, scope.environmentId, buyer.customerPk) : null,
    email: buyer.email,
    name: buyer.name,
  });
}
