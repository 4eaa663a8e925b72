/**
 * Invoices and credit notes in five languages (issue 28, item 3; decision 0072): the words
 * come from ICU catalogues (one per language, every key and placeholder of English), the
 * language is the one asked for (`?language=`, a Billow extension), else the customer's
 * locale, else the seller's; Japanese is drawn with an embedded Japanese font when the
 * machine has one (CI installs fonts-ipaexfont-gothic), else the document is English.
 * Read back with a PDF text extractor (unpdf).
 */
import fs from 'node:fs';
import path_ from 'node:path';
import { fileURLToPath } from 'node:url';
import { IntlMessageFormat } from 'intl-messageformat';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_CATALOGUES, DOCUMENT_LANGUAGES, documentLanguage } from '../src/modules/invoices/pdf/labels.js';
import { cjkFont } from '../src/modules/invoices/pdf/fonts.js';
import { openPortalWorld, portalGet, type PortalWorld } from './portal/support.js';

let w: PortalWorld;

beforeAll(async () => {
  w = await openPortalWorld();
  const profile = await w.s.call('PATCH', '/seller-profile/', { legalName: 'Acme Software GmbH', address: { line1: 'Torstraße 1', city: 'Berlin', postalCode: '10119', country: 'DE' }, defaultLanguage: 'de' });
  if (profile.status !== 200) throw new Error(profile.text);
});
afterAll(() => w?.server.close());

async function words(bytes: ArrayBuffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text.replace(/[\s\u00a0]+/g, ' ');
}

const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/invoices/', import.meta.url));

/** A document's text; `keep`: the PDF is also saved in test-artifacts/invoices/ (docs/invoices.md shows it). */
async function documentText(path: string, keep?: string): Promise<string> {
  const res = await fetch(`${w.server.url}/sandbox/api/v1${path}`, { headers: { authorization: `Bearer ${w.org.sandbox.serverKey}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  const bytes = await res.arrayBuffer();
  if (keep) {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(path_.join(ARTIFACTS, keep), Buffer.from(bytes));
  }
  return words(bytes);
}

/** A customer (with `locale` when given) who bought Basic: their paid invoice and its order. */
async function buyer(locale?: string): Promise<{ customerId: string; invoiceId: string; orderId: string }> {
  const customerId = await w.customer();
  if (locale) expect((await w.s.call('PATCH', `/customers/${customerId}/`, { locale })).status).toBe(200);
  await w.subscribe(customerId, w.s.plans.basic);
  const invoice = (await w.s.call('GET', `/invoices/?customer_id=${customerId}`)).body.results[0];
  return { customerId, invoiceId: invoice.id, orderId: invoice.orderId };
}

const argumentsOf = (message: string) => {
  const names = new Set<string>();
  const walk = (elements: Array<{ type: number; value?: unknown }>) => elements.forEach((e) => e.type >= 1 && e.type <= 6 && typeof e.value === 'string' && names.add(e.value));
  walk(new IntlMessageFormat(message, 'en').getAst() as never);
  return [...names].sort();
};

describe('the documents’ catalogues', () => {
  for (const lang of DOCUMENT_LANGUAGES) {
    it(`${lang} has every key of English, with the same placeholders`, () => {
      const catalogue = DOCUMENT_CATALOGUES[lang] as Record<string, string>;
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(DOCUMENT_CATALOGUES.en).sort());
      for (const [key, message] of Object.entries(DOCUMENT_CATALOGUES.en)) expect(argumentsOf(catalogue[key]!), `${lang} ${key}`).toEqual(argumentsOf(message));
    });
  }

  it('prints Japanese only where a Japanese font is installed, and reads tags by their language', () => {
    expect(documentLanguage('de-AT')).toBe('de');
    expect(documentLanguage('zz', 'fr-CA')).toBe('fr');
    expect(documentLanguage(null, undefined)).toBe('en');
    expect(documentLanguage('ja-JP', 'de')).toBe(cjkFont() ? 'ja' : 'de');
  });
});

describe('invoices and credit notes in the reader’s language', () => {
  it("writes the invoice in the customer's locale (French) by default, and in any of the five when asked", async () => {
    const { invoiceId } = await buyer('fr-FR');
    const french = await documentText(`/invoices/${invoiceId}/pdf/`);
    expect(french).toContain('FACTURE');
    expect(french).toContain('Numéro de facture');
    expect(french).toContain('Allemagne');
    const expected: Record<string, string[]> = {
      en: ['INVOICE', 'Invoice number', 'Germany', 'monthly'],
      de: ['RECHNUNG', 'Rechnungsnummer', 'Deutschland', 'monatlich'],
      es: ['FACTURA', 'Número de factura', 'Alemania', 'mensual'],
    };
    for (const [language, said] of Object.entries(expected)) {
      const text = await documentText(`/invoices/${invoiceId}/pdf/?language=${language}`);
      for (const phrase of said) expect(text, `${language}: ${phrase}`).toContain(phrase);
    }
  });

  it('writes Japanese with the embedded font (or English without one), glyphs a reader can extract', async () => {
    const { invoiceId } = await buyer('ja-JP');
    const text = await documentText(`/invoices/${invoiceId}/pdf/`, 'invoice-ja.pdf');
    if (cjkFont()) {
      for (const phrase of ['請求書', '請求書番号', '発行日', 'ドイツ', '毎月', 'Acme Software GmbH', 'Torstraße 1']) expect(text, phrase).toContain(phrase);
      expect(text).not.toContain('INVOICE');
    } else {
      expect(text).toContain('INVOICE');
    }
  });

  it("writes the seller's language for a customer without a locale (German here), and a credit note likewise", async () => {
    const { invoiceId, orderId } = await buyer();
    expect(await documentText(`/invoices/${invoiceId}/pdf/`)).toContain('RECHNUNG');
    const refund = await w.s.call('POST', '/refunds/', { orderId });
    expect(refund.status).toBe(200);
    const note = (await w.s.call('GET', `/credit-notes/?order_id=${orderId}`)).body.results?.[0] ?? (await w.s.call('GET', '/credit-notes/?page_size=100')).body.results.find((n: { orderId?: string; invoiceId: string }) => n.invoiceId === invoiceId);
    expect(await documentText(`/credit-notes/${note.id}/pdf/`)).toContain('GUTSCHRIFT');
    const spanish = await documentText(`/credit-notes/${note.id}/pdf/?language=es`);
    expect(spanish).toContain('FACTURA RECTIFICATIVA');
    expect(spanish).toContain('Reembolso');
  });

  it('gives the portal’s invoice PDF in the language of its reader', async () => {
    const { customerId, invoiceId } = await buyer('es');
    const link = await w.portalLink(customerId);
    const page = await portalGet(link);
    const href = new RegExp(`href="([^"]*invoices/${invoiceId}\\.pdf)"`).exec(page.text)![1]!;
    const { headers } = await import('./portal/support.js').then((m) => m.asVisited(link));
    const res = await fetch(`${w.server.url}${href}`, { headers });
    expect(res.status).toBe(200);
    expect(await words(await res.arrayBuffer())).toContain('FACTURA');
  });
});
