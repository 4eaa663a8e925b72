/**
 * The hosted checkout says whom the buyer pays (issue 27, item 2): the seller profile's
 * name (linked to their site), the legal seller, support and legal links, and for a
 * subscription what will be charged and until when. Seller text is escaped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPage, openCheckoutWorld, type CheckoutWorld } from './support.js';

let w: CheckoutWorld;

beforeAll(async () => {
  w = await openCheckoutWorld();
});
afterAll(() => w.server.close());

const setProfile = async (body: Record<string, unknown>) => {
  const res = await w.s.call('PATCH', '/seller-profile/', body);
  if (res.status !== 200) throw new Error(`profile: ${res.status} ${res.text}`);
};

/** The page's visible text, tags dropped and entities of the escaper decoded, spaces collapsed. */
const textOf = (page: string) =>
  page
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('the seller on the hosted checkout', () => {
  it('names the seller, links their site, support and terms, and says what a subscription charges until when', async () => {
    await setProfile({
      displayName: 'Acme Cloud',
      legalName: 'Acme Software GmbH',
      websiteUrl: 'https://acme.example',
      supportEmail: 'help@acme.example',
      termsUrl: 'https://acme.example/terms',
      refundPolicyUrl: 'https://acme.example/refunds',
      privacyUrl: 'https://acme.example/privacy',
    });
    const { url } = await w.session({ planIdentifier: w.s.plans.basic, chargePeriod: 'MONTHLY', cancelUrl: 'https://acme.example/pricing' });
    const page = (await getPage(url)).text;
    expect(page).toContain('<a href="https://acme.example" rel="noopener"><span class="seller-name">Acme Cloud</span></a>');
    for (const link of ['https://acme.example/terms', 'https://acme.example/refunds', 'https://acme.example/privacy', 'mailto:help@acme.example']) {
      expect(page).toContain(`href="${link}"`);
    }
    const text = textOf(page);
    expect(text).toContain('Sold by Acme Software GmbH');
    expect(text).toContain("You'll be charged $10.00 every month until you cancel.");
    expect(text).toContain('Cancel and return to Acme Cloud');
  });

  it('says nothing recurring for a one-time purchase, and speaks of the trial first', async () => {
    const once = (await getPage((await w.session({ planIdentifier: w.s.plans.lifetime, chargePeriod: 'ONE_TIME' })).url)).text;
    expect(once).not.toContain('id="recurring"');
    const trial = textOf((await getPage((await w.session({ planIdentifier: w.s.plans.trial, chargePeriod: 'MONTHLY' })).url)).text);
    expect(trial).toMatch(/After the trial, you'll be charged \$30\.00 every month until you cancel\./);
  });

  it("escapes the seller's text", async () => {
    await setProfile({ displayName: '<script>alert(1)</script> & Co', legalName: null, websiteUrl: null, supportEmail: null, supportUrl: 'https://acme.example/help?a=1&b="2"' });
    const page = (await getPage((await w.session({ planIdentifier: w.s.plans.basic, chargePeriod: 'MONTHLY' })).url)).text;
    expect(page).not.toContain('<script>alert(1)</script>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co');
    expect(page).toContain('href="https://acme.example/help?a=1&amp;b=&quot;2&quot;"');
  });
});
