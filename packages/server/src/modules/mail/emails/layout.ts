import { createRequire } from 'node:module';
import type Juice from 'juice';
import { countryName } from '../../../lib/countries.js';
import { html, SafeHtml } from '../../../page-kit/html.js';
import type { EmailFormat } from './format.js';

let juice: typeof Juice | undefined;
/** juice (with cheerio), loaded on the first email: it took a third of a second of every server start. */
function inlined(page: string, options: Parameters<typeof Juice>[1]): string {
  juice ??= createRequire(import.meta.url)('juice') as typeof Juice;
  return juice(page, options);
}

/** What every email shows of its seller (decision 0067). */
export interface EmailSeller {
  displayName: string;
  supportEmail: string | null;
  /** The address as one line without its country, or null. */
  address: string | null;
  /** The address's country (ISO 3166 code): the email names it in the buyer's language. */
  country: string | null;
  /** The customer portal's sign-in page, absolute; null when no public address is known. */
  portalUrl: string | null;
  /** The logo, absolute; null without a logo or a public address. */
  logoUrl: string | null;
  /** Where the seller is (IANA): the zone dates are written in. */
  timeZone: string;
  /** The brand colour (`#RRGGBB`), or null: the heading's rule and links take it. */
  brandColor: string | null;
}

/** An email's two parts: the text, and the same in HTML (inline styles, 600 px wide, every value escaped). */
export interface EmailBody {
  text: string;
  html: string;
}

/**
 * The emails' style sheet: juice writes it into each element's style attribute (mail clients
 * drop or ignore <style>), keeping only the dark scheme's media query as a <style>, for the
 * clients that honour it. The brand colour is a checked `#RRGGBB`.
 */
const styleSheet = (brand: string) => `
body { margin: 0; padding: 0; background: #f5f7fa; }
.page { background: #f5f7fa; }
.frame { padding: 24px 8px; }
.card { width: 100%; max-width: 600px; background: #ffffff; border-radius: 8px; border-top: 4px solid ${brand};
  font-family: Helvetica, Arial, sans-serif; color: #1f2933; }
.seller { padding: 24px 32px 0; font-size: 18px; line-height: 24px; font-weight: bold; color: #1f2933; }
.logo { display: block; height: 48px; width: auto; border: 0; }
.content { padding: 16px 32px 8px; }
h1 { margin: 0 0 16px; font-size: 22px; line-height: 28px; color: #1f2933; }
p { margin: 0 0 16px; font-size: 15px; line-height: 22px; }
a { color: ${brand}; word-break: break-all; }
.footer { padding: 16px 32px 24px; border-top: 1px solid #e4e7eb; }
.footer p { margin: 0 0 4px; font-size: 12px; line-height: 18px; color: #616e7c; }
@media (prefers-color-scheme: dark) {
  body, .page { background: #111418 !important; }
  .card { background: #1d2228 !important; color: #e4e7eb !important; }
  .seller, h1 { color: #f5f7fa !important; }
  .footer { border-top-color: #3e4c59 !important; }
  .footer p { color: #9aa5b1 !important; }
  a { color: #9ec5fe !important; }
}
`;

/** A paragraph: plain text, or words followed by a web address, which HTML shows as a link. */
export type Paragraph = string | { words: string; href: string };

const textOf = (p: Paragraph) => (typeof p === 'string' ? p : `${p.words} ${p.href}`);
function htmlOf(p: Paragraph): SafeHtml {
  if (typeof p === 'string') return html`<p>${p}</p>`;
  const link = /^https?:\/\//i.test(p.href) ? html`<a href="${p.href}">${p.href}</a>` : p.href;
  return html`<p>${p.words} ${link}</p>`;
}

/** The last paragraph: the words that lead to the portal's link, and what is said instead where no link is known (or nothing). */
export interface Closing {
  portal: string;
  withoutPortal: string | null;
}

const LINK = '#1f6feb';
/** A brand colour as a style may carry it (`#RRGGBB` only), else Billow's link blue. */
const colourOf = (seller: EmailSeller) => (seller.brandColor && /^#[0-9a-f]{6}$/i.test(seller.brandColor) ? seller.brandColor : LINK);

/** The email of `paragraphs` (escaped here) under a heading, signed by the seller; the portal's link last, where known. */
export function emailBody(seller: EmailSeller, f: EmailFormat, heading: string, given: Paragraph[], footer: string[], closing?: Closing): EmailBody {
  closing ??= { portal: f.t('mail.portal'), withoutPortal: null };
  const last: Paragraph[] = seller.portalUrl ? [{ words: closing.portal, href: seller.portalUrl }] : closing.withoutPortal ? [closing.withoutPortal] : [];
  const paragraphs = [...given, ...last];
  const text = [heading, '', ...paragraphs.flatMap((p) => [textOf(p), '']), '--', ...footer].join('\n');
  const seen = seller.logoUrl ? html`<img class="logo" src="${seller.logoUrl}" alt="${seller.displayName}" height="48">` : seller.displayName;
  // Light and dark both declared: clients that darken mail use the dark query, or invert light colours evenly; no image carries meaning (the logo's alt is the seller's name).
  const page = html`<!doctype html>
<html lang="${f.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark"><title>${heading}</title>
<style>${new SafeHtml(styleSheet(colourOf(seller)))}</style></head>
<body><table class="page" role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td class="frame" align="center">
<table class="card" role="presentation" width="600" cellpadding="0" cellspacing="0">
<tr><td class="seller">${seen}</td></tr>
<tr><td class="content"><h1>${heading}</h1>${paragraphs.map(htmlOf)}</td></tr>
<tr><td class="footer">${footer.map((line) => html`<p>${line}</p>`)}</td></tr>
</table></td></tr></table></body></html>`;
  return { text, html: inlined(page.toString(), { preserveMediaQueries: true, removeStyleTags: true, applyWidthAttributes: false, applyHeightAttributes: false }) };
}

/** The footer lines: who sent it, the seller's address and support email where known. */
export function footerOf(seller: EmailSeller, f: EmailFormat): string[] {
  const questions = seller.supportEmail ? f.t('mail.questions', { email: seller.supportEmail }) : null;
  const country = seller.country ? countryName(seller.country, f.lang) || seller.country : null;
  const address = [seller.address, country].filter((part): part is string => !!part).join(', ');
  return [f.t('mail.sentBy', { seller: seller.displayName }), address, questions].filter((line): line is string => !!line);
}
