import type { Db } from '../../../db/connect.js';
import { inTransaction, type Executor } from '../../../db/transaction.js';
import { recordAudit, type AuditableScope } from '../../audit/queries.js';
import type { Clock } from '../../../lib/clock.js';
import { systemClock } from '../../../lib/clock.js';
import { instanceSecret } from '../../instance-secrets/secret.js';
import { SecretBox } from '../../webhooks/queries.js';
import { invalidProviderSetting } from '../errors.js';
import * as repo from './repo.js';

const SECRET_KEY = /^(sk|rk)_(live|test)_[A-Za-z0-9]{8,247}$/;
const PUBLISHABLE_KEY = /^pk_(live|test)_[A-Za-z0-9]{8,247}$/;
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=_-]{8,250}$/;
const SEALING_PURPOSE = 'billow/payment-provider-secrets/v1';

export interface StripeSettingsInput {
  secretKey: string;
  webhookSecret: string;
  /** For Stripe.js on the hosted checkout page (pk_…): public, shown in full. */
  publishableKey?: string | null;
}

export interface StripeSecrets extends StripeSettingsInput {
  updatedAt: Date;
}

/** What is ever shown of a configured provider: which one, the keys' hints and the webhook URL to give Stripe. */
export interface ProviderSettingsView {
  provider: 'stripe';
  mode: 'live' | 'test';
  secretKeyHint: string;
  webhookSecretHint: string;
  publishableKey: string | null;
  webhookPath: string;
  updatedOn: string;
}

/** The kind and last four characters of a secret: enough to tell keys apart, never enough to use one. */
export function hintOf(secret: string): string {
  const kind = /^[a-z]+_(live_|test_)?/.exec(secret)?.[0] ?? '';
  return `${kind}…${secret.slice(-4)}`;
}

/** Sealing per database: its configured BILLOW_SECRET, else the database's generated instance secret. */
const boxes = new WeakMap<Db, () => Promise<SecretBox>>();
const configuredSecrets = new WeakMap<Db, string>();

export function configureSealing(db: Db, secret: string | null): void {
  if (secret) configuredSecrets.set(db, secret);
  else configuredSecrets.delete(db);
  boxes.delete(db);
}

/** The instance secret's creation time is a record of the installation, not business time: the system clock. */
function boxFor(db: Db): Promise<SecretBox> {
  let box = boxes.get(db);
  if (!box) {
    const master = instanceSecret(db, systemClock, configuredSecrets.get(db) ?? null, 'payment_provider_sealing');
    let sealing: Promise<SecretBox> | null = null;
    box = () => {
      sealing ??= master().then((secret) => new SecretBox(secret, SEALING_PURPOSE), (error: unknown) => {
        sealing = null;
        throw error;
      });
      return sealing;
    };
    boxes.set(db, box);
  }
  return box();
}

function checkSettings(environment: 'sandbox' | 'production', input: StripeSettingsInput): void {
  if (!SECRET_KEY.test(input.secretKey)) {
    throw invalidProviderSetting('stripeSecretKey', 'must be a Stripe secret key (sk_live_…, sk_test_…) or restricted key (rk_…)');
  }
  if (!WEBHOOK_SECRET.test(input.webhookSecret)) {
    throw invalidProviderSetting('stripeWebhookSecret', "must be the signing secret of a Stripe webhook endpoint (whsec_…)");
  }
  if (input.publishableKey && !PUBLISHABLE_KEY.test(input.publishableKey)) {
    throw invalidProviderSetting('stripePublishableKey', 'must be a Stripe publishable key (pk_live_…, pk_test_…)');
  }
  if (input.publishableKey && input.publishableKey.includes('_live_') !== input.secretKey.includes('_live_')) {
    throw invalidProviderSetting('stripePublishableKey', 'must be of the same mode (live or test) as the secret key');
  }
  if (environment === 'sandbox' && input.secretKey.includes('_live_')) {
    throw invalidProviderSetting('stripeSecretKey', 'the sandbox takes only test-mode keys (sk_test_…): a live key would move real money');
  }
}

export function viewOf(row: repo.ProviderConfigRow): ProviderSettingsView {
  return {
    provider: row.provider,
    mode: row.secret_key_hint.includes('_live_') ? 'live' : 'test',
    secretKeyHint: row.secret_key_hint,
    webhookSecretHint: row.webhook_secret_hint,
    publishableKey: row.publishable_key,
    webhookPath: `/providers/stripe/webhook/${row.environment_id}`,
    updatedOn: row.updated_at.toISOString(),
  };
}

/** Stores (or replaces) an environment's Stripe keys, sealed with the instance key; the environment id is the associated data. */
export async function saveStripeSettings(
  db: Db,
  clock: Clock,
  scope: AuditableScope & { organizationId: string; environmentId: string; environment: 'sandbox' | 'production' },
  input: StripeSettingsInput,
): Promise<ProviderSettingsView> {
  checkSettings(scope.environment, input);
  const box = await boxFor(db);
  const now = clock.now();
  return inTransaction(db, async (tx) => {
    const before = await repo.findProviderConfig(tx, scope.environmentId);
    const after = viewOf(await writeStripeSettings(tx, box, scope, input, now));
    // The keys' hints only: the audit log never holds a secret (decision 0077).
    const change = { action: 'payment_provider.updated' as const, resourceType: 'payment_provider', resourceId: scope.environmentId, before: before ? viewOf(before) : null, after };
    await recordAudit(tx, scope, change, now);
    return after;
  });
}

function writeStripeSettings(
  db: Executor,
  box: Awaited<ReturnType<typeof boxFor>>,
  scope: { organizationId: string; environmentId: string },
  input: StripeSettingsInput,
  now: Date,
) {
  return repo.upsertProviderConfig(db, {
    environment_id: scope.environmentId,
    organization_id: scope.organizationId,
    provider: 'stripe',
    secret_key_sealed: box.seal(input.secretKey, scope.environmentId),
    secret_key_hint: hintOf(input.secretKey),
    webhook_secret_sealed: box.seal(input.webhookSecret, scope.environmentId),
    webhook_secret_hint: hintOf(input.webhookSecret),
    publishable_key: input.publishableKey ?? null,
    created_at: now,
    updated_at: now,
  });
}

/** What the hosted checkout needs to render Stripe's Payment Element: the publishable key, or null without Stripe. */
export async function stripeCheckoutKey(db: Executor, environmentId: string): Promise<string | null | undefined> {
  const row = await repo.findProviderConfig(db, environmentId);
  return row ? row.publishable_key : undefined;
}

export async function stripeSettingsView(db: Executor, environmentId: string): Promise<ProviderSettingsView | null> {
  const row = await repo.findProviderConfig(db, environmentId);
  return row ? viewOf(row) : null;
}

/** Forgets the environment's Stripe keys; a request's removal is audited with what was set (the hints) in the same transaction. */
export function removeStripeSettings(db: Db, scope: AuditableScope & { environmentId: string }, clock: Clock = systemClock): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const before = await repo.findProviderConfig(tx, scope.environmentId);
    if (!before || !(await repo.deleteProviderConfig(tx, scope.environmentId))) return false;
    const change = { action: 'payment_provider.removed' as const, resourceType: 'payment_provider', resourceId: scope.environmentId, before: viewOf(before) };
    if (scope.organizationId) await recordAudit(tx, scope, change, clock.now());
    return true;
  });
}

/** The environment's Stripe keys, opened; null when none are configured. */
export async function stripeSecretsOf(db: Db, environmentId: string): Promise<StripeSecrets | null> {
  const row = await repo.findProviderConfig(db, environmentId);
  if (!row) return null;
  const box = await boxFor(db);
  return {
    secretKey: box.open(row.secret_key_sealed, environmentId),
    webhookSecret: box.open(row.webhook_secret_sealed, environmentId),
    updatedAt: row.updated_at,
  };
}
