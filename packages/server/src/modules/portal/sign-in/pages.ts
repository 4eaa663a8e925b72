import { html, type SafeHtml } from '../../../page-kit/html.js';
import type { CustomerRow } from '../../customers/queries.js';
import { layout } from '../layout.js';
import { CODE_DIGITS } from './code.js';
import type { SignInGone } from './service.js';

/** Where a page is: the environment's prefix, the portal's sign-in URL, the seller's name, the form token. */
export interface SignInView {
  prefix: string;
  base: string;
  organizationName: string;
  sandbox: boolean;
  csrf: string;
}

const csrfField = (view: SignInView) => html`<input type="hidden" name="csrf_token" value="${view.csrf}">`;

const problemBox = (problem: string | null) => (problem ? html`<div class="problem" role="alert" id="form-problem">${problem}</div>` : null);

function page(view: SignInView, title: string, body: SafeHtml): string {
  return layout(title, view.prefix, html`<p class="hint">${view.organizationName} · Billing portal</p>${body}`);
}

export function emailPage(view: SignInView, options: { email?: string; problem?: string | null; notice?: string | null } = {}): string {
  const problem = options.problem ?? null;
  return page(view, 'Sign in to the billing portal', html`${problemBox(problem)}
<section class="card" aria-labelledby="title">
<h1 id="title">Sign in with your email</h1>
${options.notice ? html`<p>${options.notice}</p>` : null}
<p>Enter the email you bought with. We will send a ${CODE_DIGITS}-digit code to it.</p>
<form method="post" action="${view.base}" novalidate>
${csrfField(view)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${options.email ?? ''}"${problem ? html` aria-invalid="true" aria-describedby="form-problem"` : null}>
<button type="submit" id="send-code">Send me a code</button>
</form>
</section>`);
}

function sandboxInboxNote(view: SignInView): SafeHtml | null {
  if (!view.sandbox) return null;
  return html`<p class="banner" role="note">Sandbox: no email is sent. The code is in the sandbox's development inbox, which the seller opens from the link GET /sandbox/api/v1/mail/inbox/ answers.</p>`;
}

export function codePage(view: SignInView, options: { id: string; email: string; problem?: string | null }): string {
  const problem = options.problem ?? null;
  return page(view, 'Enter your code', html`${sandboxInboxNote(view)}${problemBox(problem)}
<section class="card" aria-labelledby="title">
<h1 id="title">Enter your code</h1>
<p id="sent-to">If <strong>${options.email}</strong> belongs to a customer account, we sent it a ${CODE_DIGITS}-digit code. It can take a minute to arrive.</p>
<form method="post" action="${view.base}/${options.id}" novalidate>
${csrfField(view)}
<label for="code">Code</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required maxlength="12" pattern="[0-9 ]*"${problem ? html` aria-invalid="true" aria-describedby="form-problem"` : null}>
<button type="submit" id="verify-code">Sign in</button>
</form>
<p><a href="${view.base}">Use another email, or ask for a new code</a></p>
</section>`);
}

const since = (at: Date) => at.toISOString().slice(0, 10);

export function choosePage(view: SignInView, options: { id: string; customers: CustomerRow[] }): string {
  const choices = options.customers.map(
    (c, i) => html`<div class="item"><h3 id="account-${i}">${c.name || 'Unnamed account'}</h3><p class="hint">Account ${c.customer_id}, since ${since(c.created_at)}</p>
<button type="submit" name="customer" value="${c.id}" class="secondary" id="choose-${i}" aria-describedby="account-${i}">Open this account</button></div>`,
  );
  return page(view, 'Choose an account', html`<section class="card" aria-labelledby="title">
<h1 id="title">Choose an account</h1>
<p>Several accounts with ${view.organizationName} use this email. Which one do you want to manage?</p>
<form method="post" action="${view.base}/${options.id}/choose">
${csrfField(view)}
${choices}
</form>
</section>`);
}

const GONE_TEXT: Record<SignInGone | 'no_account' | 'limited' | 'unavailable' | 'forbidden' | 'failed', [string, string]> = {
  missing: ['Start again', 'This sign-in is not known in this browser. Ask for a code, and enter it in the same browser.'],
  expired: ['This code has expired', 'Codes work for a limited time. Ask for a new one.'],
  used: ['This code was already used', 'Each code signs in once. Ask for a new one.'],
  spent: ['Too many wrong codes', 'This code no longer works after several wrong tries. Ask for a new one.'],
  no_account: ['No account to open', 'No customer account uses this email any more. Ask the seller for help.'],
  limited: ['Too many codes asked for', 'Too many codes were asked for this email or from this network. Wait an hour, then try again.'],
  unavailable: ['Sign-in by email is not available', 'This portal cannot send email yet. Ask the seller for a link to your billing portal.'],
  failed: ['Something went wrong', 'Please try again in a moment.'],
  forbidden: ['This form has expired', 'Your browser did not send this page\'s sign-in cookie, or the form is out of date. Allow cookies for this site, then start again.'],
};

/** A dead end of sign-in, with the way back to asking for a code. */
export function endPage(view: SignInView, reason: keyof typeof GONE_TEXT): string {
  const [title, text] = GONE_TEXT[reason];
  return page(view, title, html`<section class="card" aria-labelledby="title"><h1 id="title">${title}</h1><p id="reason">${text}</p>
${reason === 'unavailable' ? null : html`<p><a href="${view.base}" id="start-again">Ask for a new code</a></p>`}</section>`);
}
