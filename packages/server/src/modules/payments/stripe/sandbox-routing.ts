import type {
  AttachedMethod,
  AttachingPaymentProvider,
  AttachRequest,
  ChargeOutcome,
  ChargeRequest,
  ConfirmingPaymentProvider,
  ConfirmRequest,
  PaymentProvider,
  RefundOutcome,
  RefundRequest,
} from '../provider.js';
import { parseStripeMethodRef, type StripeProvider } from './provider.js';

/**
 * A sandbox environment with Stripe in test mode: methods saved through Stripe's element
 * (cus_…/pm_…) are charged on Stripe, the built-in test cards saved through the API
 * (card_…) by the built-in provider, and each charge is refunded or confirmed where it was made.
 */
export class SandboxWithStripe implements ConfirmingPaymentProvider, AttachingPaymentProvider {
  readonly name = 'stripe';

  constructor(
    private readonly sandbox: PaymentProvider,
    private readonly stripe: StripeProvider,
  ) {}

  private byCharge(ref: string): PaymentProvider {
    return ref.startsWith('ch_sandbox_') ? this.sandbox : this.stripe;
  }

  charge(request: ChargeRequest): Promise<ChargeOutcome> {
    return (parseStripeMethodRef(request.methodRef) ? this.stripe : this.sandbox).charge(request);
  }

  refund(request: RefundRequest): Promise<RefundOutcome> {
    return this.byCharge(request.chargeRef).refund(request);
  }

  confirm(request: ConfirmRequest): Promise<ChargeOutcome> {
    return (this.byCharge(request.chargeRef) as ConfirmingPaymentProvider).confirm(request);
  }

  attach(request: AttachRequest): Promise<AttachedMethod> {
    return this.stripe.attach(request);
  }
}
