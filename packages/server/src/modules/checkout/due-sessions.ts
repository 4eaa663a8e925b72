/**
 * Sessions that pay what is already owed (decision 0035): the payment an activate_on_payment
 * change waits for (opened by the update call, in its transaction) and an unpaid renewal
 * invoice (opened by the invoice's payment link). Their page is the hosted checkout's.
 */
import type { Insertable } from 'kysely';
import type { CheckoutSessionsTable } from '../../db/schema.js';
import { inTransaction, type Executor, type Tx } from '../../db/transaction.js';
import type { Db } from '../../db/connect.js';
import { decimalText } from '../ledger/format.js';
import { enqueueJob } from '../jobs/service.js';
import type { PendingChangeCheckout } from './ports.js';
import * as repo from './repo.js';
import { invoiceOfPayToken, liveSessionFor, type PayLinkInvoice } from './repo/due.js';
import { EXPIRE_CHECKOUT_JOB, newSessionId, SESSION_TTL_MS, timeline } from './service.js';
import { checkoutUrl } from './view.js';

/** The server's root from an API base (https://host[/sandbox]/api/v1). */
const rootOf = (apiBase: string) => apiBase.replace(/(\/sandbox)?\/api\/v1$/, '');

type DueFields = Pick<
  Insertable<CheckoutSessionsTable>,
  'environment_id' | 'organization_id' | 'environment' | 'product_id' | 'plan_identifier' | 'charge_period' | 'customer_ref' | 'customer_id'
  | 'features' | 'purpose' | 'target_id' | 'change_request' | 'amount_minor' | 'currency' | 'email' | 'name' | 'api_base' | 'created_via' | 'expires_at'
>;

/** Inserts a due session (its success page is its own page), its first timeline entry and its expiry job. */
async function insertDueSession(tx: Executor, fields: DueFields, now: Date): Promise<{ checkoutUrl: string; checkoutSessionId: string }> {
  const id = newSessionId();
  const url = checkoutUrl(rootOf(fields.api_base), fields.environment, id);
  await repo.insertSession(tx, {
    ...fields,
    id,
    status: 'open',
    currency_code: fields.currency,
    discounts_enabled: false,
    lock_email: true,
    success_url: url,
    metadata: '{}',
    expires_at: fields.expires_at,
    created_at: now,
    modified_at: now,
  });
  await timeline(tx, id, 'checkout_session.created', 'Checkout session created', 'success', now, {
    amount: decimalText(fields.amount_minor ?? 0, fields.currency ?? 'USD'),
    currency: fields.currency,
    purpose: fields.purpose,
  });
  await enqueueJob(tx, { name: EXPIRE_CHECKOUT_JOB, payload: { sessionId: id }, runAt: fields.expires_at, key: id });
  return { checkoutUrl: url, checkoutSessionId: id };
}

/** The update call's session for a change that waits for its payment; it expires with the change. */
export const openChangeSession: PendingChangeCheckout = async (tx: Tx, scope, change) =>
  insertDueSession(
    tx,
    {
      environment_id: scope.environmentId,
      organization_id: scope.organizationId,
      environment: scope.environment,
      product_id: change.productId,
      plan_identifier: change.input.planIdentifier,
      charge_period: change.input.chargePeriod,
      customer_ref: change.customer.customer_id,
      customer_id: change.customer.id,
      features: JSON.stringify(change.input.features ?? []),
      purpose: 'subscription_change',
      target_id: change.subscriptionId,
      change_request: JSON.stringify(change.input),
      amount_minor: change.amountMinor,
      currency: change.currency,
      email: change.customer.email,
      name: change.customer.name,
      api_base: scope.apiBase,
      created_via: 'subscription_update',
      expires_at: change.expiresAt,
    },
    change.askedAt,
  );

/**
 * Where an invoice's payment link (`/pay/{token}/`) leads in `environment`: nowhere (an unknown
 * or malformed token, or one of the other environment), the page of a paid invoice, or the
 * invoice's open session.
 */
export async function payLinkTarget(
  db: Db,
  link: { token: string; environment: string; apiBase: string; now: Date },
): Promise<{ kind: 'missing' } | { kind: 'paid' | 'expired'; organizationId: string; environmentId: string; customerLocale: string | null } | { kind: 'session'; location: string }> {
  const invoice = /^pl_[A-Za-z0-9]{20,64}$/.test(link.token) ? await invoiceOfPayToken(db, link.token) : undefined;
  if (!invoice || invoice.environment !== link.environment) return { kind: 'missing' };
  const closed = { organizationId: invoice.organization_id, environmentId: invoice.environment_id, customerLocale: invoice.locale };
  if (invoice.status === 'PAID') return { kind: 'paid', ...closed };
  // The link stops working 30 days after the invoice's last failed attempt (decision 0070), by the customer's clock.
  const now = invoice.clock_time ?? link.now;
  if (invoice.pay_token_expires_at && invoice.pay_token_expires_at.getTime() <= now.getTime()) return { kind: 'expired', ...closed };
  return { kind: 'session', location: await invoiceSession(db, invoice, link.apiBase, link.now) };
}

/**
 * The session of an invoice's payment link: the one still open, else a new one (24 hours).
 * `apiBase` is the link's root with its environment's prefix, as the API would answer it.
 */
export async function invoiceSession(db: Db, invoice: PayLinkInvoice, apiBase: string, now: Date): Promise<string> {
  return inTransaction(db, async (tx) => {
    const live = await liveSessionFor(tx, invoice.id, now);
    if (live) return checkoutUrl(rootOf(live.api_base), live.environment, live.id);
    const opened = await insertDueSession(
      tx,
      {
        environment_id: invoice.environment_id,
        organization_id: invoice.organization_id,
        environment: invoice.environment,
        product_id: invoice.product_id,
        plan_identifier: invoice.plan_identifier,
        charge_period: invoice.charge_period ?? 'MONTHLY',
        customer_ref: invoice.customer_ref,
        customer_id: invoice.customer_uuid,
        features: '[]',
        purpose: 'invoice',
        target_id: invoice.id,
        change_request: null,
        amount_minor: invoice.total_minor,
        currency: invoice.currency,
        email: invoice.email,
        name: invoice.name,
        api_base: apiBase,
        created_via: 'payment_link',
        expires_at: new Date(now.getTime() + SESSION_TTL_MS),
      },
      now,
    );
    return opened.checkoutUrl;
  });
}
