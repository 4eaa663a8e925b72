import { translator } from '../../page-kit/i18n.js';
import { negotiateLanguage } from '../../page-kit/locale.js';
import type { PageState } from './page-state.js';

/** The page in the buyer's language: the customer's locale, else the browser's, else the seller's, else English. */
export function inBuyersLanguage(state: PageState, acceptLanguage: string | string[] | undefined): PageState {
  const lang = negotiateLanguage({ customerLocale: state.customerLocale, acceptLanguage, sellerLanguage: state.seller.language });
  return { ...state, t: translator(lang) };
}
