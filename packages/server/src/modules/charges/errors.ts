import { type DomainError, invalid } from '../../lib/domain-error.js';

export const recurringChargePeriod = (chargePeriod: string): DomainError =>
  invalid(
    `chargePeriod must be ONE_TIME for a one-time charge, not ${chargePeriod}; recurring purchases use POST /subscriptions/create/`,
    'invalid_charge_period',
  );
