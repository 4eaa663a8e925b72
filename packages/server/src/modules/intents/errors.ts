import { DomainError } from '../../lib/domain-error.js';

const IN_PROGRESS = 'payment_in_progress';

export const paymentInProgress = () =>
  new DomainError(
    'conflict',
    IN_PROGRESS,
    "A payment for this customer is in progress; retry once it has settled (usually within a second)",
  );
/** Another request is paying for the same customer or intent right now. */
export const isPaymentInProgress = (error: unknown): boolean => error instanceof DomainError && error.code === IN_PROGRESS;

export const purchaseChangedWhilePaying = () =>
  new DomainError(
    'conflict',
    'purchase_changed',
    'The purchase changed while its payment was in progress (for example a new plan version was published), ' +
      'so the payment was given back; retry to buy at the current terms',
  );
