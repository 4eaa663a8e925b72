import type { EnvironmentKind } from '../../config.js';
import { paymentProviderRequired } from './errors.js';
import type { PaymentProvider } from './provider.js';
import { SandboxProvider } from './sandbox-provider.js';

export { cardDetails, luhnValid } from './cards.js';

/** One sandbox provider per process, so that its idempotency memory spans requests. */
const builtInSandbox = new SandboxProvider();
let sandbox: PaymentProvider = builtInSandbox;

/**
 * Puts another provider in the place of the sandbox environments' own, process-wide,
 * and returns the one it replaced: tests put doubles there that block, fail or count.
 */
export function replaceSandboxProvider(provider: PaymentProvider): PaymentProvider {
  const previous = sandbox;
  sandbox = provider;
  return previous;
}

/**
 * The provider that moves money in an environment, or null when there is none.
 * Sandbox environments always have the built-in sandbox provider. Production has
 * none yet: a Stripe provider (through Stripe's official library, configured
 * per organization) plugs in here.
 *
 * Idempotency keys given to a provider must be unique across the installation
 * (derive them from a row id, e.g. the order's): the sandbox provider serves
 * every organization of the process.
 */
export function paymentProviderFor(environment: EnvironmentKind): PaymentProvider | null {
  return environment === 'sandbox' ? sandbox : null;
}

/** The sandbox provider itself, for the steps only it offers (confirming a charge that required action). */
export function sandboxProvider(): SandboxProvider {
  return builtInSandbox;
}

/** The environment's provider; 428 `payment_provider_required` when it has none. */
export function requireProvider(environment: EnvironmentKind): PaymentProvider {
  const provider = paymentProviderFor(environment);
  if (!provider) throw paymentProviderRequired();
  return provider;
}
