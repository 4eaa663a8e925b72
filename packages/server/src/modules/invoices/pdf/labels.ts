/**
 * The words of a document, per language (decision 0064, amended by 0072): ICU messages from
 * the catalogues in messages/, read by intl-messageformat, as the hosted pages' are. English,
 * German, French and Spanish print with the standard PDF fonts; Japanese needs an embedded
 * font (fonts.ts), and falls back to English where the machine has none.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import { cjkFont } from './fonts.js';
import { de } from './messages/de.js';
import { en, type DocumentCatalogue } from './messages/en.js';
import { es } from './messages/es.js';
import { fr } from './messages/fr.js';
import { ja } from './messages/ja.js';

type Key = keyof typeof en;

export interface Labels {
  invoice: string;
  status: { PAID: string; OPEN: string; PAYMENT_FAILED: string };
  invoiceNumber: string;
  issueDate: string;
  supplyDate: string;
  paidOn: string;
  dueDate: string;
  order: string;
  billTo: string;
  customer: string;
  /** "Tax ID DE123456788", "USt-IdNr. DE123456788". */
  taxIdValue: (id: string) => string;
  columns: { description: string; quantity: string; unitPrice: string; discount: string; taxRate: string; tax: string; net: string };
  rates: { rate: string; net: string; tax: string };
  totalNet: string;
  totalTax: string;
  total: string;
  creditApplied: string;
  creditCarried: string;
  amountPaid: string;
  amountDue: string;
  pricesIncludeTax: string;
  amountsIn: (currency: string) => string;
  /** "Country of taxation: Germany". */
  taxCountryValue: (country: string) => string;
  /** The footer of each page: "INV-2026-000001 - page 1 of 2". */
  footer: (number: string, page: number, of: number) => string;
  periods: Record<string, string>;
  oneOff: string;
  unusedTime: (plan: string) => string;
  remainingTime: (plan: string) => string;
  /** A line's words: "Pro — monthly", "API calls — 7,707 × 0.01", and its service period after a comma. */
  line: {
    period: (name: string, period: string) => string;
    quantity: (name: string, quantity: string) => string;
    unitPrice: (name: string, quantity: string, unit: string) => string;
    dated: (words: string, dates: string) => string;
  };
  /** The mention art. 226(11a) asks of a reverse-charged invoice. */
  reverseCharge: string;
  creditNote: {
    title: string;
    number: string;
    corrects: string;
    reason: string;
    reasons: { REFUND: string; PRORATION: string };
    creditedTo: string;
    totalCredited: string;
    fallbackLine: string;
  };
}

/** The languages documents are written in; the first is the fallback. */
export const DOCUMENT_LANGUAGES = ['en', 'de', 'fr', 'es', 'ja'] as const;
export type DocumentLanguage = (typeof DOCUMENT_LANGUAGES)[number];

export const DOCUMENT_CATALOGUES: Record<DocumentLanguage, DocumentCatalogue> = { en, de, fr, es, ja };

/** Languages whose script the standard PDF fonts cannot print. */
const NEEDS_EMBEDDED_FONT = new Set<string>(['ja']);

/** A tag's language among ours ("de-AT" is German, "ja-JP" Japanese), else null. */
function baseLanguage(tag: unknown): DocumentLanguage | null {
  if (typeof tag !== 'string') return null;
  const base = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return (DOCUMENT_LANGUAGES as readonly string[]).includes(base) ? (base as DocumentLanguage) : null;
}

/**
 * The language a document is written in: the first of `wanted` (the reader's, the seller's…)
 * that is one of ours and can be printed here; else English.
 */
export function documentLanguage(...wanted: unknown[]): DocumentLanguage {
  for (const tag of wanted) {
    const lang = baseLanguage(tag);
    if (lang && (!NEEDS_EMBEDDED_FONT.has(lang) || cjkFont() !== null)) return lang;
  }
  return 'en';
}

/** Whether the language's script needs the embedded font. */
export const scriptOf = (language: string): 'latin' | 'cjk' => (NEEDS_EMBEDDED_FONT.has(language) ? 'cjk' : 'latin');

const compiled = new Map<string, IntlMessageFormat>();

function say(lang: DocumentLanguage, key: Key, values?: Record<string, string | number>): string {
  const id = `${lang}:${key}`;
  let format = compiled.get(id);
  if (!format) {
    format = new IntlMessageFormat(DOCUMENT_CATALOGUES[lang][key], lang);
    compiled.set(id, format);
  }
  return String(format.format(values));
}

function build(lang: DocumentLanguage): Labels {
  const w = (key: Key, values?: Record<string, string | number>) => say(lang, key, values);
  return {
    invoice: w('invoice'),
    status: { PAID: w('status.PAID'), OPEN: w('status.OPEN'), PAYMENT_FAILED: w('status.PAYMENT_FAILED') },
    invoiceNumber: w('invoiceNumber'),
    issueDate: w('issueDate'),
    supplyDate: w('supplyDate'),
    paidOn: w('paidOn'),
    dueDate: w('dueDate'),
    order: w('order'),
    billTo: w('billTo'),
    customer: w('customer'),
    taxIdValue: (id) => w('taxIdValue', { id }),
    columns: {
      description: w('columns.description'), quantity: w('columns.quantity'), unitPrice: w('columns.unitPrice'), discount: w('columns.discount'),
      taxRate: w('columns.taxRate'), tax: w('columns.tax'), net: w('columns.net'),
    },
    rates: { rate: w('rates.rate'), net: w('rates.net'), tax: w('rates.tax') },
    totalNet: w('totalNet'),
    totalTax: w('totalTax'),
    total: w('total'),
    creditApplied: w('creditApplied'),
    creditCarried: w('creditCarried'),
    amountPaid: w('amountPaid'),
    amountDue: w('amountDue'),
    pricesIncludeTax: w('pricesIncludeTax'),
    amountsIn: (currency) => w('amountsIn', { currency }),
    taxCountryValue: (country) => w('taxCountryValue', { country }),
    footer: (number, page, of) => w('footer', { number, page: w('page', { page, of }) }),
    periods: Object.fromEntries(['DAILY', 'WEEKLY', 'TWENTY_EIGHT_DAYS', 'MONTHLY', 'QUARTERLY', 'THREE_MONTHS', 'SIX_MONTHS', 'YEARLY'].map((p) => [p, w(`periods.${p}` as Key)])),
    oneOff: w('oneOff'),
    unusedTime: (plan) => w('unusedTime', { plan }),
    remainingTime: (plan) => w('remainingTime', { plan }),
    line: {
      period: (name, period) => w('line.period', { name, period }),
      quantity: (name, quantity) => w('line.quantity', { name, quantity }),
      unitPrice: (name, quantity, unit) => w('line.unitPrice', { name, quantity, unit }),
      dated: (words, dates) => w('line.dated', { words, dates }),
    },
    reverseCharge: w('reverseCharge'),
    creditNote: {
      title: w('creditNote.title'),
      number: w('creditNote.number'),
      corrects: w('creditNote.corrects'),
      reason: w('creditNote.reason'),
      reasons: { REFUND: w('creditNote.reasons.REFUND'), PRORATION: w('creditNote.reasons.PRORATION') },
      creditedTo: w('creditNote.creditedTo'),
      totalCredited: w('creditNote.totalCredited'),
      fallbackLine: w('creditNote.fallbackLine'),
    },
  };
}

const built = new Map<DocumentLanguage, Labels>();

export function labelsFor(language: string): Labels {
  const lang = baseLanguage(language) ?? 'en';
  let labels = built.get(lang);
  if (!labels) {
    labels = build(lang);
    built.set(lang, labels);
  }
  return labels;
}
