/** The operator's commands for payment providers (`billow provider …`), without the HTTP service. */
import type { Config } from '../../config.js';
import type { Db } from '../../db/connect.js';
import { DomainError } from '../../lib/domain-error.js';
import type { Clock } from '../../lib/clock.js';
import { ProviderAdminError } from './errors.js';
import { configureProviders } from './providers.js';
import { environmentOfOrganization } from './stripe/repo.js';
import { removeStripeSettings, saveStripeSettings, stripeSettingsView, type ProviderSettingsView } from './stripe/settings.js';

export { ProviderAdminError } from './errors.js';
export type { ProviderSettingsView } from './stripe/settings.js';

type Kind = 'sandbox' | 'production';

async function environmentId(db: Db, organizationId: string, environment: Kind): Promise<string> {
  const found = await environmentOfOrganization(db, organizationId, environment);
  if (!found) throw new ProviderAdminError(`No organization ${organizationId}`);
  return found.id;
}

export async function setStripe(
  db: Db,
  clock: Clock,
  config: Config,
  target: { organizationId: string; environment: Kind; secretKey: string; webhookSecret: string; publishableKey?: string | null },
): Promise<ProviderSettingsView> {
  configureProviders(db, { secret: config.secret, stripeApiUrl: config.stripeApiUrl });
  const id = await environmentId(db, target.organizationId, target.environment);
  try {
    return await saveStripeSettings(db, clock, { organizationId: target.organizationId, environmentId: id, environment: target.environment }, target);
  } catch (error) {
    if (error instanceof DomainError) throw new ProviderAdminError(error.detail.replace(/^stripeSecretKey/, '--stripe-secret-key').replace(/^stripeWebhookSecret/, '--stripe-webhook-secret').replace(/^stripePublishableKey/, '--stripe-publishable-key'));
    throw error;
  }
}

export async function showProvider(db: Db, organizationId: string, environment: Kind): Promise<ProviderSettingsView | null> {
  return stripeSettingsView(db, await environmentId(db, organizationId, environment));
}

export async function removeProvider(db: Db, organizationId: string, environment: Kind): Promise<boolean> {
  return removeStripeSettings(db, { organizationId, environmentId: await environmentId(db, organizationId, environment) });
}
