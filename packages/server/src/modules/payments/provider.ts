/** How Billow moves money. The sandbox provider needs no network; a Stripe one plugs in behind the same shape. */

export interface ChargeRequest {
  /** The payment method's provider handle (payment_methods.provider_ref). */
  methodRef: string;
  amountMinor: number;
  currency: string;
  /** True when the customer is not present (API charges, renewals): no authentication step is possible. */
  offSession: boolean;
  description: string;
  /** Makes a retried call to the provider charge once. */
  idempotencyKey: string;
}

export type ChargeOutcome =
  | { status: 'succeeded'; providerRef: string }
  | { status: 'requires_action'; providerRef: string }
  /** The provider has not decided yet (a network provider's asynchronous outcome): a webhook or the recovery task settles it. */
  | { status: 'processing'; providerRef: string }
  | {
      status: 'failed';
      code:
        | 'card_declined'
        | 'insufficient_funds'
        | 'authentication_required'
        | 'authentication_failed'
        | 'processing_error'
        | 'stolen_card'
        | 'provider_key_rejected'
        | 'provider_idempotency_error';
      message: string;
    };

export interface RefundRequest {
  /** The provider reference of the charge being refunded. */
  chargeRef: string;
  amountMinor: number;
  currency: string;
  idempotencyKey: string;
}

export type RefundOutcome =
  | { status: 'succeeded'; providerRef: string }
  | { status: 'failed'; message: string };

export interface CardDetails {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  funding: string;
  country: string;
}

export interface PaymentProvider {
  readonly name: string;
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
  refund(request: RefundRequest): Promise<RefundOutcome>;
}

/** A card the customer saved with the provider's own client-side element: Billow never sees its number. */
export interface AttachRequest {
  /** The provider's handle of the method the customer entered (a Stripe PaymentMethod id). */
  paymentMethod: string;
  /** Billow's customer (customers.id): the provider's customer is derived from it. */
  customerId: string;
  /** The provider's customer already holding this customer's other methods, if any. */
  providerCustomer: string | null;
  email: string | null;
  name: string | null;
}

export interface AttachedMethod {
  /** payment_methods.provider_ref of the saved method. */
  methodRef: string;
  card: CardDetails;
}

/** A provider that keeps cards itself (Stripe): methods are attached by its handle, never by card number. */
export interface AttachingPaymentProvider extends PaymentProvider {
  attach(request: AttachRequest): Promise<AttachedMethod>;
}

export interface ConfirmRequest {
  /** The provider reference of a charge that answered requires_action. */
  chargeRef: string;
  /** Whether the customer completed the authentication step (3-D Secure or the like). */
  authenticated: boolean;
  idempotencyKey: string;
}

/** A provider whose on-session charges can ask for a confirmation step (used by the hosted checkout). */
export interface ConfirmingPaymentProvider extends PaymentProvider {
  confirm(request: ConfirmRequest): Promise<ChargeOutcome>;
}
