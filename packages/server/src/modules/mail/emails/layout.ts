import { html, type SafeHtml } from '../../../page-kit/html.js';
import type { EmailFormat } from './format.js';

/** What every email shows of its seller (decision 0067). */
export interface EmailSeller {
  displayName: string;
  supportEmail: string | null;
  /** The address as one line, or null. */
  address: string | null;
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

const FONT = 'font-family:Helvetica,Arial,sans-serif;color:#1f2933;';
const P_STYLE = 'margin:0 0 16px;font-size:15px;line-height:22px;';

/** A paragraph: plain text, or words followed by a web address, which HTML shows as a link. */
export type Paragraph = string | { words: string; href: string };

const textOf = (p: Paragraph) => (typeof p === 'string' ? p : `${p.words} ${p.href}`);
function htmlOf(p: Paragraph, colour: string): SafeHtml {
  if (typeof p === 'string') return html`<p style="${P_STYLE}">${p}</p>`;
  const link = /^https?:\/\//i.test(p.href) ? html`<a href="${p.href}" style="color:${colour};word-break:break-all;">${p.href}</a>` : p.href;
  return html`<p style="${P_STYLE}">${p.words} ${link}</p>`;
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
  const colour = colourOf(seller);
  const text = [heading, '', ...paragraphs.flatMap((p) => [textOf(p), '']), '--', ...footer].join('\n');
  const rows: SafeHtml[] = paragraphs.map((p) => htmlOf(p, colour));
  const foot: SafeHtml[] = footer.map((line) => html`<p style="margin:0 0 4px;font-size:12px;line-height:18px;color:#616e7c;">${line}</p>`);
  // Light colours declared as the only scheme: clients that darken mail invert them evenly; nothing is said by an image alone.
  const page = html`<!doctype html>
<html lang="${f.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><meta name="color-scheme" content="light only"><meta name="supported-color-schemes" content="light only"><title>${heading}</title></head>
<body style="margin:0;padding:0;background:#f5f7fa;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f5f7fa;"><tr><td align="center" style="padding:24px 8px;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="width:600px;max-width:100%;background:#ffffff;border-radius:8px;border-top:4px solid ${colour};${FONT}">
<tr><td style="padding:24px 32px 0;font-size:18px;font-weight:bold;">${seller.logoUrl ? html`<img src="${seller.logoUrl}" alt="${seller.displayName}" height="48" style="display:block;height:48px;width:auto;border:0;">` : seller.displayName}</td></tr>
<tr><td style="padding:16px 32px 8px;"><h1 style="margin:0 0 16px;font-size:22px;line-height:28px;">${heading}</h1>${rows}</td></tr>
<tr><td style="padding:16px 32px 24px;border-top:1px solid #e4e7eb;">${foot}</td></tr>
</table></td></tr></table></body></html>`;
  return { text, html: page.toString() };
}

/** The footer lines: who sent it, the seller's address and support email where known. */
export function footerOf(seller: EmailSeller, f: EmailFormat): string[] {
  const questions = seller.supportEmail ? f.t('mail.questions', { email: seller.supportEmail }) : null;
  return [f.t('mail.sentBy', { seller: seller.displayName }), seller.address, questions].filter((line): line is string => !!line);
}
