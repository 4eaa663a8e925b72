import { derivedBase62 } from '../../lib/crypto.js';
import { cardNumberOfRef, luhnValid } from './cards.js';
import type {
  ChargeOutcome,
  ChargeRequest,
  ConfirmRequest,
  ConfirmingPaymentProvider,
  RefundOutcome,
  RefundRequest,
} from './provider.js';

/** The test cards of the reference, with what a charge on each does. */
export const SANDBOX_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  authenticationRequired: '4000002500003155',
  insufficientFunds: '4000000000009995',
  /** Reported stolen: a hard decline, which dunning does not retry on the same card. */
  stolen: '4000000000009979',
} as const;

/** How many idempotency keys each operation remembers; the oldest are forgotten first. */
const REMEMBERED_KEYS = 10_000;

const CHARGE_REF = /^ch_sandbox_[A-Za-z0-9]+$/;

class Remembered<T> {
  private readonly entries = new Map<string, T>();
  constructor(private readonly limit: number) {}

  /** The first outcome for `key`, computing and keeping it on first use. */
  once(key: string, compute: () => T): T {
    const known = this.entries.get(key);
    if (known !== undefined) return known;
    const outcome = compute();
    if (this.entries.size >= this.limit) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, outcome);
    return outcome;
  }
}

function checkAmount(amountMinor: number, currency: string): void {
  // Bugs of the caller, not outcomes of a card: they throw.
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0) {
    throw new RangeError(`A charge amount must be a non-negative integer in minor units, not ${amountMinor}`);
  }
  if (!/^[A-Z]{3}$/.test(currency)) throw new RangeError(`"${currency}" is not an ISO 4217 currency code`);
}

/**
 * Billow's built-in provider for sandbox environments: no network, no account,
 * outcomes decided by the test card (the handle `card_<digits>`):
 *
 * - 4242 4242 4242 4242 and any other Luhn-valid number succeed;
 * - 4000 0000 0000 0002 is declined (`card_declined`);
 * - 4000 0000 0000 9995 has insufficient funds (`insufficient_funds`);
 * - 4000 0000 0000 9979 is reported stolen (`stolen_card`, a hard decline);
 * - 4000 0025 0000 3155 needs authentication: off session (API charges,
 *   renewals) it fails with `authentication_required`; on session it answers
 *   `requires_action`, and `confirm()` completes or fails it.
 *
 * Refunds of a sandbox charge succeed. A repeated idempotency key returns the
 * first outcome, for as long as this process remembers it (the last 10,000
 * keys of each operation).
 */
export class SandboxProvider implements ConfirmingPaymentProvider {
  readonly name = 'sandbox';
  private readonly charges = new Remembered<ChargeOutcome>(REMEMBERED_KEYS);
  private readonly refunds = new Remembered<RefundOutcome>(REMEMBERED_KEYS);
  private readonly confirmations = new Remembered<ChargeOutcome>(REMEMBERED_KEYS);

  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    checkAmount(request.amountMinor, request.currency);
    return this.charges.once(request.idempotencyKey, () => outcomeOf(request));
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    checkAmount(request.amountMinor, request.currency);
    return this.refunds.once(request.idempotencyKey, () => {
      if (!CHARGE_REF.test(request.chargeRef)) {
        return { status: 'failed', message: `${request.chargeRef} is not a charge of the sandbox provider` };
      }
      if (request.amountMinor === 0) return { status: 'failed', message: 'A refund must be of a positive amount' };
      return { status: 'succeeded', providerRef: `re_sandbox_${derivedBase62(request.idempotencyKey, 24)}` };
    });
  }

  /** The confirmation step of an on-session charge that answered requires_action. */
  async confirm(request: ConfirmRequest): Promise<ChargeOutcome> {
    return this.confirmations.once(request.idempotencyKey, () => {
      if (!CHARGE_REF.test(request.chargeRef)) {
        return failed('processing_error', `${request.chargeRef} is not a charge of the sandbox provider`);
      }
      if (!request.authenticated) {
        return failed('authentication_required', 'The customer did not complete the authentication of the card');
      }
      return { status: 'succeeded', providerRef: request.chargeRef };
    });
  }
}

function failed(
  code: Extract<ChargeOutcome, { status: 'failed' }>['code'],
  message: string,
): Extract<ChargeOutcome, { status: 'failed' }> {
  return { status: 'failed', code, message };
}

function outcomeOf(request: ChargeRequest): ChargeOutcome {
  const number = cardNumberOfRef(request.methodRef);
  if (number === null || !luhnValid(number)) {
    return failed('processing_error', `${request.methodRef} is not a payment method of the sandbox provider`);
  }
  // Derived from the idempotency key: a retry after a restart (which forgets the keys) gets the same charge back.
  const providerRef = `ch_sandbox_${derivedBase62(request.idempotencyKey, 24)}`;
  switch (number) {
    case SANDBOX_CARDS.declined:
      return failed('card_declined', 'The card was declined');
    case SANDBOX_CARDS.insufficientFunds:
      return failed('insufficient_funds', 'The card has insufficient funds');
    case SANDBOX_CARDS.stolen:
      return failed('stolen_card', 'The card was reported stolen');
    case SANDBOX_CARDS.authenticationRequired:
      return request.offSession
        ? failed(
            'authentication_required',
            'The card requires authentication, which is impossible when the customer is not present',
          )
        : { status: 'requires_action', providerRef };
    default:
      return { status: 'succeeded', providerRef };
  }
}
