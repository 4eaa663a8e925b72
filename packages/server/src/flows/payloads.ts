import { formatMinor, currencyDigits } from '../lib/money.js';
import type { CustomerRow } from './purchase.js';

/** Webhook objects are snake_case, as the reference's examples are. */
export function customerObject(customer: CustomerRow) {
  const address = (customer.billing_address ?? {}) as Record<string, unknown>;
  return {
    id: customer.id,
    name: customer.name,
    email: customer.email,
    customer_id: customer.customer_id,
    billing_address: {
      line1: address.line1 ?? null,
      line2: address.line2 ?? null,
      city: address.city ?? null,
      state: address.state ?? null,
      postal_code: address.postalCode ?? null,
      country: address.country ?? null,
    },
  };
}

export const money = (minor: number, currency: string) => formatMinor(minor, currencyDigits(currency));
