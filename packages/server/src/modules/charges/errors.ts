import { type ApiError, badRequest } from '../../http/errors.js';

export const recurringChargePeriod = (chargePeriod: string): ApiError =>
  badRequest(
    `chargePeriod must be ONE_TIME for a one-time charge, not ${chargePeriod}; recurring purchases use POST /subscriptions/create/`,
    'invalid_charge_period',
  );
