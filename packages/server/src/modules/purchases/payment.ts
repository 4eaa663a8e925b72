import type { Tx } from '../../db/transaction.js';
import type { DomainError } from '../../lib/domain-error.js';
import { chargeableMethodFor } from '../payments/methods.service.js';
import { assertProviderConfigured } from '../payments/providers.js';
import type { ChargeOutcome } from '../payments/provider.js';
import { paymentInProgress } from '../intents/errors.js';
import { paymentMethodRequired, paymentNeedsAuthentication, paymentRefused } from './errors.js';
import type { CustomerRow, PaymentMethodRow, PurchaseScope } from './purchase.js';

/** A saved method of the customer's, or else the one an active subscription of theirs pays with. */
export function chargeableMethod(tx: Tx, scope: PurchaseScope, customer: CustomerRow): Promise<PaymentMethodRow | undefined> {
  return chargeableMethodFor(tx, scope.environmentId, customer.id);
}

/** A payment needs a usable method of the customer's (400); callers check the provider first (428). */
export function assertCanPay(method: PaymentMethodRow | undefined): asserts method is PaymentMethodRow {
  if (!method) throw paymentMethodRequired();
}

/** The method a purchase pays with; when it must pay (`required`), see assertCanPay. */
export async function paymentMethodFor(
  tx: Tx,
  scope: PurchaseScope,
  customer: CustomerRow,
  required: boolean,
): Promise<PaymentMethodRow | undefined> {
  // The provider first (428: production can hold no method without one), then the method (400).
  if (required) await assertProviderConfigured(tx, scope);
  const method = await chargeableMethod(tx, scope, customer);
  if (required) assertCanPay(method);
  return method;
}

function refusal(outcome: Exclude<ChargeOutcome, { status: 'succeeded' }>): DomainError {
  if (outcome.status === 'requires_action') return paymentNeedsAuthentication();
  if (outcome.status === 'processing') return paymentInProgress();
  return paymentRefused(outcome.code, outcome.message);
}

/** The payment a purchase's plan needs (use-cases/planned-payment.ts). */
export interface PaymentRequest {
  method: PaymentMethodRow;
  amountMinor: number;
  currency: string;
  description: string;
  planVersionId: string;
}

export function refusalOf(outcome: ChargeOutcome): DomainError | null {
  return outcome.status === 'succeeded' ? null : refusal(outcome);
}

/** What became of a planned purchase's payment, as its commit records it (use-cases/planned-payment.ts). */
export type PaymentOutcome =
  /** The plan needed no payment. */
  | { kind: 'none' }
  | { kind: 'paid'; chargeRef: string }
  /** `error`: the refusal as the purchase's caller is told it. */
  | { kind: 'refused'; code: string; message: string; error: DomainError };
