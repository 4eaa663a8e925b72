/**
 * The checkout's pages that take no payment (decision 0068): the confirmation after a
 * purchase (amount, receipt address, invoice), an expired session, an unknown link, a
 * failure; each in the buyer's language.
 */
import { html, type SafeHtml } from '../../page-kit/html.js';
import { ENGLISH, type Translator } from '../../page-kit/i18n.js';
import { sellerFooter, sellerHeader } from '../../page-kit/seller.js';
import type { ClosedFacts } from './confirmation.js';
import { layout } from './page.js';
import type { SessionRow } from './repo.js';

/** What was bought, for how much, where the receipt goes, and the invoice. */
function purchaseFacts(session: SessionRow, facts: ClosedFacts, tr: Translator): SafeHtml {
  const { t } = tr;
  const amount = session.amount_minor ?? 0;
  const paid = amount > 0 && session.currency
    ? html`<p id="paid-amount">${t('confirm.paid', { amount: tr.money(amount, session.currency) })}</p>`
    : html`<p id="paid-amount">${t('confirm.nothingCharged')}</p>`;
  const what = facts.planName && facts.planName !== facts.productName ? t('confirm.what', { product: facts.productName, plan: facts.planName }) : facts.productName;
  const when = session.completed_at ? html`<p class="hint">${t('confirm.date', { date: tr.date(session.completed_at) })}</p>` : null;
  const receipt = session.email ? html`<p id="receipt-to">${t('confirm.receipt', { email: session.email })}</p>` : null;
  const invoice = facts.invoiceHref
    ? html`<p><a class="button" id="invoice-link" href="${facts.invoiceHref}" download>${t('confirm.invoice', { number: facts.invoiceNumber ?? '' })}</a></p>`
    : null;
  return html`<p class="hint" id="purchase-what">${what}</p>${paid}${when}${receipt}${invoice}`;
}

/** A completed or expired session: a clear page, never an error. A completed one says what was bought. */
export function closedPage(session: SessionRow, reason: 'expired' | 'success', prefix: string, facts: ClosedFacts | null = null, tr: Translator = ENGLISH): string {
  const { t } = tr;
  const seller = facts?.seller.displayName ?? '';
  const sellerParts = (body: SafeHtml) => (facts ? html`${sellerHeader(facts.seller)}${body}${sellerFooter(facts.seller, tr)}` : body);
  if (reason === 'expired') {
    const back = session.cancel_url ? html`<p><a href="${session.cancel_url}">${t('closed.return', { seller })}</a></p>` : null;
    const body = html`<section class="card"><h1>${t('closed.expiredTitle')}</h1><p>${t('closed.expiredText')}</p>${back}</section>`;
    return layout(t('closed.expiredTitle'), prefix, sellerParts(body), false, facts?.seller.brandColor ?? null, tr.lang);
  }
  const own = facts?.ownPage ?? false;
  const title = own ? t('confirm.title') : t('closed.completeTitle');
  const onward = own ? null : html`<p><a href="${session.success_url}" id="continue">${t('closed.continue', { seller })}</a></p>`;
  const body = html`<section class="card" aria-labelledby="closed-title"><h1 id="closed-title">${title}</h1>
${facts ? purchaseFacts(session, facts, tr) : html`<p>${t('closed.completeText')}</p>`}
${onward}</section>`;
  return layout(title, prefix, sellerParts(body), false, facts?.seller.brandColor ?? null, tr.lang);
}

export function missingPage(prefix: string, { t, lang }: Translator = ENGLISH): string {
  return layout(t('missing.title'), prefix, html`<section class="card"><h1>${t('missing.title')}</h1><p>${t('missing.text')}</p></section>`, false, null, lang);
}

/** A page with a title, a sentence, and, for the seller, what was wrong in their words (a buy link they built). */
export function errorPage(prefix: string, tr: Translator, page: { title: string; text: string; detail?: string | null }): string {
  const detail = page.detail ? html`<p class="hint">${tr.t('buyLink.forSeller', { detail: page.detail })}</p>` : null;
  return layout(page.title, prefix, html`<section class="card"><h1>${page.title}</h1><p>${page.text}</p>${detail}</section>`, false, null, tr.lang);
}
