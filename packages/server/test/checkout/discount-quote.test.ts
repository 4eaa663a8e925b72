import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { CARDS } from '../commerce-support.js';
import { uniqueId } from '../harness.js';
import { csrfOf, getPage, openCheckoutWorld, payWith, postForm, type CheckoutWorld } from './support.js';

// The discount field's JSON quote, POST {page}/discount/ (decision 0034), over plain HTTP:
// what the page's script sends and reads. The browser side is browser-pricing.test.ts.

const clock = new ManualClock(new Date('2026-11-20T10:00:00Z'));
let w: CheckoutWorld;

beforeAll(async () => {
  w = await openCheckoutWorld({ clock });
});
afterAll(() => w?.server.close());

const codeOf = (prefix: string) => uniqueId(prefix).toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 20);

async function discount(body: Record<string, unknown>): Promise<string> {
  const code = codeOf('Q');
  const made = await w.s.call('POST', '/discounts/', { name: 'Test discount', code, discountType: 'PERCENTAGE', percentOff: 25, ...body });
  expect(made.status, made.text).toBe(201);
  return code;
}

/** What the page's script sends: the discount form's fields, as JSON [name, value] pairs. */
async function quote(pageUrl: string, fields: Record<string, unknown>, contentType = 'application/json', acceptLanguage?: string) {
  const res = await fetch(`${pageUrl}discount/`, {
    method: 'POST',
    headers: { 'content-type': contentType, ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}) },
    body: contentType === 'application/json' ? JSON.stringify({ fields: Object.entries(fields) }) : new URLSearchParams(fields as Record<string, string>).toString(),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text.startsWith('{') ? JSON.parse(text) : null };
}

async function opened(body: Record<string, unknown> = {}) {
  const session = await w.session({ defaultBillingCountry: 'DE', ...body });
  const csrf = csrfOf((await getPage(session.url)).text);
  const fields = { csrf_token: csrf, action: 'discount', plan: w.s.plans.basic, period: 'MONTHLY', country: 'DE' };
  return { ...session, csrf, fields };
}

const sessionOf = async (id: string) => (await w.s.call('GET', `/checkout/sessions/${id}/`)).body;

describe("the discount field's JSON quote", () => {
  it('applies a code: the session keeps it and the answer is the server’s price, rendered as the page renders it', async () => {
    const code = await discount({});
    const { id, url, fields } = await opened();
    const applied = await quote(url, { ...fields, discount_code: ` ${code.toLowerCase()} ` });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.headers.get('cache-control')).toBe('no-store');
    // Basic is $10 a month: a quarter off leaves $7.50, and Germany's 19 % VAT is added to it.
    expect(applied.body).toMatchObject({
      discountCode: code.toLowerCase(),
      message: `Code "${code.toLowerCase()}" applied: $2.50 off.`,
      payLabel: 'Pay $8.93',
      quote: { currency: 'USD', subtotalMinor: 1000, discountMinor: 250, taxMinor: 143, totalMinor: 893 },
    });
    expect(applied.body.summaryHtml).toContain('<td>Discount</td><td class="amount">−$2.50</td>');
    expect(applied.body.summaryHtml).toContain('id="total">$8.93<');
    expect((await sessionOf(id)).discountCode).toBe(code.toLowerCase());
    // The page rendered afresh shows the same.
    expect((await getPage(url)).text).toContain('id="total">$8.93<');

    const removed = await quote(url, { ...fields, discount_code: code, remove_discount: '1' });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toMatchObject({ discountCode: null, message: 'The discount code was removed.', payLabel: 'Pay $11.90' });
    expect((await sessionOf(id)).discountCode).toBeNull();
  });

  it('says why a code is refused (unknown, expired, used up, not for this plan) and changes nothing', async () => {
    const expiring = await discount({ expiresAt: new Date(clock.now().getTime() + 3600_000).toISOString() });
    const once = await discount({ maxRedemptions: 1 });
    const elsewhere = await discount({ restrictions: { planIdentifiers: [w.s.plans.pro] } });
    const kept = await discount({});
    // Used up: bought once through the page without JavaScript.
    const first = await opened({ discountCode: once });
    expect((await postForm(first.url, payWith(first.csrf, CARDS.ok, { country: 'DE' }))).status).toBe(303);

    const { id, url, fields } = await opened({ discountCode: kept });
    const cases: [string, string][] = [
      ['NO-SUCH-CODE', 'The code "NO-SUCH-CODE" cannot be applied: there is no such code.'],
      [once, `The code "${once}" cannot be applied: it has been used up.`],
      [elsewhere, `The code "${elsewhere}" cannot be applied: it is not valid for this plan or currency.`],
    ];
    for (const [code, message] of cases) {
      const refused = await quote(url, { ...fields, discount_code: code });
      expect(refused.status, refused.text).toBe(422);
      expect(refused.body).toEqual({ detail: message, code: 'discount_not_applied' });
    }
    // The field speaks the page's language: the browser's here.
    const german = await quote(url, { ...fields, discount_code: once }, 'application/json', 'de-DE,de;q=0.9');
    expect(german.body).toEqual({ detail: `Der Code „${once}“ kann nicht angewendet werden: Er ist aufgebraucht.`, code: 'discount_not_applied' });
    const japanese = await quote(url, { ...fields, discount_code: 'NO-SUCH-CODE' }, 'application/json', 'ja');
    expect(japanese.body.detail).toBe('コード「NO-SUCH-CODE」は適用できません。このコードは存在しません。');
    const forgedInFrench = await quote(url, { ...fields, csrf_token: 'forged', discount_code: 'X' }, 'application/json', 'fr');
    expect(forgedInFrench.body).toMatchObject({ code: 'checkout_form_expired', detail: 'Ce formulaire a expiré. Rechargez la page et réessayez.' });
    clock.advance(2 * 3600_000);
    const late = await quote(url, { ...fields, discount_code: expiring });
    expect(late.body.detail).toBe(`The code "${expiring}" cannot be applied: it has expired.`);
    expect((await sessionOf(id)).discountCode).toBe(kept);
  });

  it('takes no amount from the page: the payment is priced from the session’s code', async () => {
    const code = await discount({});
    const { id, url, csrf, fields } = await opened();
    const applied = await quote(url, { ...fields, discount_code: code, totalMinor: '1', amount: '0.01', discountMinor: '1000' });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.quote.totalMinor).toBe(893);
    const paid = await postForm(url, payWith(csrf, CARDS.ok, { country: 'DE', discount_code: 'IGNORED', total: '0.01' }));
    expect(paid.status, paid.text).toBe(303);
    const detail = await sessionOf(id);
    expect(detail.order).toMatchObject({ amountDiscount: '2.50', amountTax: '1.43', amountTotal: '8.93' });
    const invoice = (await w.s.call('GET', `/invoices/${detail.order.invoiceId}/`)).body;
    expect(invoice).toMatchObject({ amountDiscount: '2.50', amountTax: '1.43', amountTotal: '8.93', status: 'PAID' });
  });

  it('Enter in the discount field without JavaScript applies the code typed and keeps the other fields; Enter elsewhere pays', async () => {
    const code = await discount({});
    const { id, url, csrf } = await opened();
    const typed = { email: 'typed@example.com', name: 'Tia Typed', country: 'DE' };
    const enter = (extra: Record<string, string>) => postForm(url, payWith(csrf, CARDS.ok, { ...typed, action: 'enter', ...extra }));
    const refused = await enter({ discount_code: 'NO-SUCH-CODE' });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('The code &quot;NO-SUCH-CODE&quot; cannot be applied: there is no such code.');
    const applied = await enter({ discount_code: code });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.text).toContain(`Code &quot;${code}&quot; applied: $2.50 off.`);
    expect(applied.text).toContain('value="typed@example.com"');
    expect(applied.text).toContain('value="Tia Typed"');
    expect(await sessionOf(id)).toMatchObject({ status: 'open', discountCode: code, order: null });
    const removed = await postForm(url, { csrf_token: csrf, ...typed, discount_code: code, remove_discount: '1', plan: w.s.plans.basic, period: 'MONTHLY' });
    expect(removed.text).toContain('id="total">$11.90<');
    expect(removed.text).toContain('value="typed@example.com"');
    expect((await enter({ discount_code: code })).status).toBe(200);
    const paid = await enter({ discount_code: code });
    expect(paid.status, paid.text).toBe(303);
    expect((await sessionOf(id)).order).toMatchObject({ amountDiscount: '2.50', amountTotal: '8.93' });
  });

  it('refuses a missing CSRF token, an unknown or closed session, a bad body, and a form post', async () => {
    const { id, url, fields } = await opened();
    const forged = await quote(url, { ...fields, csrf_token: 'forged', discount_code: 'X' });
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({ code: 'checkout_form_expired', detail: 'This form has expired. Reload the page and try again.' });
    const unknown = await quote(`${w.server.url}/sandbox/checkout/cs_${'A'.repeat(48)}/`, fields);
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/^No checkout session/);
    // The production page path does not answer a sandbox session.
    const production = await quote(url.replace('/sandbox/', '/'), fields);
    expect(production.status).toBe(404);
    const notStrings = await quote(url, { ...fields, discount_code: ['A', 'B'] });
    expect(notStrings.status).toBe(400);
    expect(notStrings.body.detail).toBeTruthy();
    const tooLong = await quote(url, { ...fields, discount_code: 'A'.repeat(201) });
    expect(tooLong.status).toBe(400);
    // A cross-site form cannot post here: url-encoded bodies are not parsed on this route.
    const formPost = await quote(url, { ...fields, discount_code: 'X' }, 'application/x-www-form-urlencoded');
    expect(formPost.status).toBe(415);
    expect(formPost.body.detail).toBeTruthy();
    const noDiscounts = await opened({ discountsEnabled: false });
    const disabled = await quote(noDiscounts.url, { ...noDiscounts.fields, discount_code: 'X' });
    expect(disabled.status).toBe(422);
    expect(disabled.body.detail).toBe('Discount codes are not accepted for this purchase.');
    expect((await sessionOf(id)).discountCode).toBeNull();
    clock.advance(25 * 3600_000);
    const expired = await quote(url, { ...fields, discount_code: 'X' });
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ code: 'checkout_session_closed', detail: 'This checkout has expired. Ask the seller for a new link.' });
    const expiredInSpanish = await quote(url, { ...fields, discount_code: 'X' }, 'application/json', 'es');
    expect(expiredInSpanish.body).toMatchObject({ code: 'checkout_session_closed', detail: 'Esta compra ha caducado. Pida un enlace nuevo al vendedor.' });
  });
});
