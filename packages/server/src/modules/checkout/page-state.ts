import type { SellerOnPages } from '../seller-profile/queries.js';
import type { Priced, Selection } from './page-model.js';
import type * as repo from './repo.js';
import type { StripeOnPage } from './stripe-element.js';
import type { BuyerProblem, Translator } from '../../page-kit/i18n.js';

/** Everything the page shows: the session, what is chosen and its price, and what went wrong. */
export interface PageState extends Priced {
  session: repo.SessionRow;
  productName: string;
  productDescription: string;
  /** The product's main image, on Billow's own origin, and its alt text ('' when its name says nothing). */
  productImage: { src: string; alt: string } | null;
  selection: Selection;
  csrf: string;
  sandbox: boolean;
  providerReady: boolean;
  email: string;
  name: string;
  /** The business field: ticked, and the tax id in it (as sent, else the customer's own). */
  business: boolean;
  taxId: string;
  /** A problem with what the buyer sent, and the field it is about. */
  formProblem: BuyerProblem | null;
  /** The card asks the buyer to authenticate the payment: the page shows that step instead of the form. */
  authenticate: boolean;
  /** Cards are taken by Stripe's Payment Element (never a card field on the page); null: the sandbox's test cards. */
  stripe: StripeOnPage | null;
  /** Whom the buyer pays (the seller profile). */
  seller: SellerOnPages;
  /** The page's language: its words and money format (English until the route negotiates). */
  t: Translator;
}
