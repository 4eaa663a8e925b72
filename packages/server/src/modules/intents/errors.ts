import { ApiError } from '../../http/errors.js';

export const paymentInProgress = () =>
  new ApiError(
    409,
    'payment_in_progress',
    "A payment for this customer is in progress; retry once it has settled (usually within a second)",
  );

export const purchaseChangedWhilePaying = () =>
  new ApiError(
    409,
    'purchase_changed',
    'The purchase changed while its payment was in progress (for example a new plan version was published), ' +
      'so the payment was given back; retry to buy at the current terms',
  );
