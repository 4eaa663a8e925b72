/**
 * Per-country prices at checkout (decision 0036). The catalog prices a plan per currency
 * (decision 0013), so a country's price is the plan's price in that country's currency:
 * a session that names no currency, for a buyer without one, is priced in the currency of
 * the country the buyer is located in when the plan has an enabled price in it, else as
 * before (the product's currency). Located only where the location can be trusted: a
 * server key's ipAddress, the address a buy link or a client key's request came from.
 */
import type { Tx } from '../../db/transaction.js';
import { isNoPriceInCurrency } from '../purchases/errors.js';
import { resolvePurchase, type CustomerRow, type PurchaseInput, type PurchaseScope, type ResolvedPurchase } from '../purchases/purchase.js';
import { countryOfIp } from '../../lib/geoip.js';
import { currencyOfCountry } from '../../lib/local-currency.js';

export interface Locator {
  kind: 'server' | 'client';
  /** The address the creating request came from (a client key's buyer). */
  callerIp?: string | null | undefined;
}

/** The buyer's local currency for a new session, or null when the session or the customer already decides it. */
export function localCurrency(locator: Locator, via: 'api' | 'buy_link', customer: CustomerRow, input: Pick<PurchaseInput, 'currencyCode' | 'ipAddress'>): string | null {
  if (input.currencyCode || customer.currency) return null;
  const trusted = locator.kind === 'server' || via === 'buy_link' ? input.ipAddress : locator.callerIp;
  return currencyOfCountry(countryOfIp(trusted));
}

/** The purchase in the local currency when the plan sells in it, else as resolvePurchase decides. */
export async function resolveInLocalCurrency(
  tx: Tx,
  scope: PurchaseScope,
  customer: CustomerRow,
  input: PurchaseInput,
  local: string | null,
): Promise<ResolvedPurchase> {
  if (local) {
    try {
      return await resolvePurchase(tx, scope, customer, { ...input, currencyCode: local });
    } catch (error) {
      if (!isNoPriceInCurrency(error)) throw error;
    }
  }
  return resolvePurchase(tx, scope, customer, input);
}
