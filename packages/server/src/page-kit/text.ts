import { currencySymbol, decimalText } from '../modules/ledger/format.js';

/** An amount in minor units as the hosted pages print it: $12.50. */
export const money = (minor: number, currency: string): string => `${currencySymbol(currency)}${decimalText(minor, currency)}`;
