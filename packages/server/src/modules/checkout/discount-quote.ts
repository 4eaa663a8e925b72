/**
 * The discount field with JavaScript: the script sends the discount form's fields as JSON
 * and puts the answer in place (no reload). The same rules as the form posted back
 * (discount-apply.ts): the code is checked and kept on the session, and the answer is
 * the server's own quote, rendered by the page's own summary. Nothing here is trusted
 * later: the payment prices the session's code again.
 */
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import type { CheckoutPages } from './ports.js';
import { applySessionDiscount, type SentFields } from './discount-apply.js';
import { FormProblem, quoteFormExpired, quoteRefused, quoteSessionClosed, sessionNotFound } from './errors.js';
import { discountNotice } from './page-discount.js';
import { payLabel, summary } from './page.js';
import { inBuyersLanguage } from './page-language.js';
import type { SessionRow } from './repo.js';
import { sessionCustomer } from './session-customer.js';
import { translator, type Translator } from '../../page-kit/i18n.js';
import { negotiateLanguage } from '../../page-kit/locale.js';
import { sellerOnPages } from '../seller-profile/queries.js';

export interface DiscountQuote {
  discountCode: string | null;
  /** What the live region under the field says. */
  message: string;
  /** The price table as the page renders it (escaped by the `html` tag). */
  summaryHtml: string;
  payLabel: string;
  quote: { currency: string; subtotalMinor: number; discountMinor: number; taxMinor: number; totalMinor: number } | null;
}

export class DiscountQuotes {
  /** The page's language for this session's buyer (decision 0068): their locale, the browser's, the seller's. */
  private async buyersWords(session: SessionRow, acceptLanguage: string | undefined): Promise<Translator> {
    const [customer, seller] = await Promise.all([sessionCustomer(this.db, session), sellerOnPages(this.db, session.organization_id, session.environment_id)]);
    return translator(negotiateLanguage({ customerLocale: customer?.locale ?? null, acceptLanguage, sellerLanguage: seller.language }));
  }

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly completion: CheckoutPages,
  ) {}

  /** Applies (or removes) the sent code and answers the new price; a DomainError (forbidden, not found, gone, unprocessable) when it cannot. */
  async apply(id: string, environment: 'sandbox' | 'production', sent: SentFields, ipAddress: string | null, acceptLanguage?: string): Promise<DiscountQuote> {
    const session = await this.completion.sessionAt(id, environment);
    if (!session) throw sessionNotFound(id);
    // A refusal is shown under the field as it is: in the buyer's language, as the page is.
    const t = await this.buyersWords(session, acceptLanguage);
    if (!(await this.completion.csrfValid(id, sent.csrf_token))) throw quoteFormExpired(t.t('problem.formExpired'));
    const closed = this.completion.closedAnswer(session);
    if (closed?.kind === 'closed') throw quoteSessionClosed(t.t(closed.reason === 'success' ? 'problem.checkoutComplete' : 'problem.checkoutExpired'));
    let updated;
    try {
      updated = await applySessionDiscount(this.db, this.clock, session, sent, ipAddress);
    } catch (error) {
      if (error instanceof FormProblem) throw quoteRefused(t.problem({ field: error.field, message: error.message, key: error.key, values: error.values }));
      throw error;
    }
    const state = inBuyersLanguage(await this.completion.state(updated, sent, ipAddress, null), acceptLanguage);
    const q = state.purchase?.quote ?? null;
    return {
      discountCode: updated.discount_code,
      message: discountNotice(state).text || state.t.t('discount.removed'),
      summaryHtml: summary(state).value,
      payLabel: payLabel(state),
      quote: q && { currency: q.currency, subtotalMinor: q.subtotalMinor, discountMinor: q.discountMinor, taxMinor: q.taxMinor, totalMinor: q.totalMinor },
    };
  }
}
