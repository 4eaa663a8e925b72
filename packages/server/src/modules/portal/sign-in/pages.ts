import { html, type SafeHtml } from '../../../page-kit/html.js';
import type { BuyerProblem, MessageKey, Translator } from '../../../page-kit/i18n.js';
import type { CustomerRow } from '../../customers/queries.js';
import { layout } from '../layout.js';
import { CODE_DIGITS } from './code.js';
import type { SignInGone } from './service.js';

/** Where a page is: the environment's prefix, the portal's sign-in URL, the seller's name, the form token, the language. */
export interface SignInView {
  prefix: string;
  base: string;
  organizationName: string;
  sandbox: boolean;
  csrf: string;
  /** The browser's language (no customer is known before the code), else the seller's, else English. */
  t: Translator;
}

const csrfField = (view: SignInView) => html`<input type="hidden" name="csrf_token" value="${view.csrf}">`;

const problemBox = (view: SignInView, problem: BuyerProblem | null) =>
  problem ? html`<div class="problem" role="alert" id="form-problem">${view.t.problem(problem)}</div>` : null;

function page(view: SignInView, title: string, body: SafeHtml): string {
  const heading = view.organizationName ? view.t.t('signIn.heading', { seller: view.organizationName }) : view.t.t('portal.title');
  return layout(title, view.prefix, html`<p class="hint">${heading}</p>${body}`, false, null, view.t.lang);
}

export function emailPage(view: SignInView, options: { email?: string; problem?: BuyerProblem | null } = {}): string {
  const { t } = view.t;
  const problem = options.problem ?? null;
  return page(view, t('signIn.pageTitle'), html`${problemBox(view, problem)}
<section class="card" aria-labelledby="title">
<h1 id="title">${t('signIn.title')}</h1>
<p>${t('signIn.intro', { digits: CODE_DIGITS })}</p>
<form method="post" action="${view.base}" novalidate>
${csrfField(view)}
<label for="email">${t('signIn.email')}</label>
<input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${options.email ?? ''}"${problem ? html` aria-invalid="true" aria-describedby="form-problem"` : null}>
<button type="submit" id="send-code">${t('signIn.send')}</button>
</form>
</section>`);
}

function sandboxInboxNote(view: SignInView): SafeHtml | null {
  if (!view.sandbox) return null;
  return html`<p class="banner" role="note">${view.t.t('signIn.sandbox')}</p>`;
}

export function codePage(view: SignInView, options: { id: string; email: string; problem?: BuyerProblem | null }): string {
  const { t } = view.t;
  const problem = options.problem ?? null;
  return page(view, t('signIn.codeTitle'), html`${sandboxInboxNote(view)}${problemBox(view, problem)}
<section class="card" aria-labelledby="title">
<h1 id="title">${t('signIn.codeTitle')}</h1>
<p id="sent-to">${t('signIn.sentTo', { email: options.email, digits: CODE_DIGITS })}</p>
<form method="post" action="${view.base}/${options.id}" novalidate>
${csrfField(view)}
<label for="code">${t('signIn.code')}</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required maxlength="12" pattern="[0-9 ]*"${problem ? html` aria-invalid="true" aria-describedby="form-problem"` : null}>
<button type="submit" id="verify-code">${t('signIn.verify')}</button>
</form>
<p><a href="${view.base}">${t('signIn.another')}</a></p>
</section>`);
}

export function choosePage(view: SignInView, options: { id: string; customers: CustomerRow[] }): string {
  const { t } = view.t;
  const choices = options.customers.map(
    (c, i) => html`<div class="item"><h3 id="account-${i}">${c.name || t('signIn.unnamed')}</h3><p class="hint">${t('signIn.account', { id: c.customer_id, date: view.t.date(c.created_at) })}</p>
<button type="submit" name="customer" value="${c.id}" class="secondary" id="choose-${i}" aria-describedby="account-${i}">${t('signIn.open')}</button></div>`,
  );
  return page(view, t('signIn.chooseTitle'), html`<section class="card" aria-labelledby="title">
<h1 id="title">${t('signIn.chooseTitle')}</h1>
<p>${t('signIn.chooseText', { seller: view.organizationName })}</p>
<form method="post" action="${view.base}/${options.id}/choose">
${csrfField(view)}
${choices}
</form>
</section>`);
}

export type SignInEnd = SignInGone | 'no_account' | 'limited' | 'unavailable' | 'forbidden' | 'failed';

/** A dead end of sign-in, with the way back to asking for a code. */
export function endPage(view: SignInView, reason: SignInEnd): string {
  const { t } = view.t;
  const title = t(`signIn.${reason}Title` as MessageKey);
  return page(view, title, html`<section class="card" aria-labelledby="title"><h1 id="title">${title}</h1><p id="reason">${t(`signIn.${reason}Text` as MessageKey)}</p>
${reason === 'unavailable' ? null : html`<p><a href="${view.base}" id="start-again">${t('signIn.startAgain')}</a></p>`}</section>`);
}
