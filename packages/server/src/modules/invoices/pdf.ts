import { percentText } from '../billing/rounding.compute.js';
import { decimalText } from '../ledger/format.js';

/** Everything printed on an invoice; amounts in minor units of `currency`. */
export interface InvoicePdf {
  number: string;
  status: 'OPEN' | 'PAID' | 'PAYMENT_FAILED';
  issuedOn: Date;
  dueOn: Date | null;
  paidOn: Date | null;
  orderId: string;
  seller: { name: string; details: string[] };
  buyer: { name: string | null; email: string | null; address: string[] };
  currency: string;
  lines: { description: string; quantity: number; amountMinor: number }[];
  subtotalMinor: number;
  discountMinor: number;
  taxMinor: number;
  totalMinor: number;
  taxRateBp: number;
  taxCountry: string | null;
  taxBehavior: string;
  /** Printed under the totals, e.g. the reverse-charge mention. */
  notes?: string[];
}

const INK = '#1f2328';
const MUTED = '#656d76';
const RULE = '#d0d7de';
const STATUS_COLOURS: Record<InvoicePdf['status'], string> = { PAID: '#1a7f37', OPEN: '#9a6700', PAYMENT_FAILED: '#cf222e' };
const STATUS_LABELS: Record<InvoicePdf['status'], string> = { PAID: 'PAID', OPEN: 'OPEN', PAYMENT_FAILED: 'PAYMENT FAILED' };

// The standard PDF fonts (no font files to ship) cover Windows-1252: other characters are approximated.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

export function printable(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch)) {
      out += ch;
      continue;
    }
    if (ch === '\u2212') {
      out += '-';
      continue;
    }
    const stripped = ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
    out += /^[\x20-\x7e]+$/.test(stripped) ? stripped : '?';
  }
  return out;
}

/** 1234567 USD -> "12,345.67 USD": grouped decimal text, no floating point. */
export function moneyText(minor: number, currency: string): string {
  const text = decimalText(Math.abs(minor), currency);
  const [whole, fraction] = text.split('.') as [string, string?];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${minor < 0 ? '-' : ''}${grouped}${fraction !== undefined ? `.${fraction}` : ''} ${currency}`;
}

const day = (at: Date) => at.toISOString().slice(0, 10);

let regionNames: Intl.DisplayNames | null = null;
export function countryName(code: string): string {
  try {
    regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/** An A4 invoice: seller and buyer, number and dates, the lines, subtotal, discount, tax and total, and the status. */
export async function renderInvoicePdf(invoice: InvoicePdf): Promise<Buffer> {
  // Loaded on first use: most processes (and every CLI command) never draw an invoice.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    bufferPages: true,
    info: {
      Title: `Invoice ${invoice.number}`,
      Author: printable(invoice.seller.name),
      Subject: `Invoice ${invoice.number} for order ${invoice.orderId}`,
      Creator: 'Billow',
      CreationDate: invoice.issuedOn,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const right = doc.page.width - doc.page.margins.right;
  const width = right - left;
  const put = (value: string, x: number, y: number, options: PDFKit.Mixins.TextOptions = {}) =>
    doc.text(printable(value), x, y, { lineBreak: false, ...options });

  // Header: seller on the left, the word INVOICE and the status on the right.
  doc.font('Helvetica-Bold').fontSize(18).fillColor(INK);
  doc.text(printable(invoice.seller.name), left, 50, { width: width * 0.6 });
  doc.font('Helvetica').fontSize(9).fillColor(MUTED);
  for (const line of invoice.seller.details) doc.text(printable(line), { width: width * 0.6 });
  const headerBottom = doc.y;

  doc.font('Helvetica-Bold').fontSize(22).fillColor(INK);
  put('INVOICE', left, 48, { width, align: 'right' });
  doc.font('Helvetica-Bold').fontSize(11).fillColor(STATUS_COLOURS[invoice.status]);
  put(STATUS_LABELS[invoice.status], left, 76, { width, align: 'right' });

  // Invoice facts on the right, the buyer on the left.
  const facts: [string, string][] = [
    ['Invoice number', invoice.number],
    ['Issue date', day(invoice.issuedOn)],
    ...(invoice.paidOn ? ([['Paid on', day(invoice.paidOn)]] as [string, string][]) : []),
    ...(invoice.dueOn && !invoice.paidOn ? ([['Due date', day(invoice.dueOn)]] as [string, string][]) : []),
    ['Order', invoice.orderId],
  ];
  const blockTop = Math.max(headerBottom, 100) + 24;
  let y = blockTop;
  for (const [label, value] of facts) {
    doc.font('Helvetica').fontSize(9).fillColor(MUTED);
    put(label, right - 270, y, { width: 80 });
    doc.font('Helvetica-Bold').fillColor(INK);
    // Wide enough for a 29-character id (decision 0044) on one line.
    put(value, right - 190, y, { width: 190, align: 'right' });
    y += 15;
  }
  const factsBottom = y;

  doc.font('Helvetica').fontSize(9).fillColor(MUTED);
  put('BILL TO', left, blockTop);
  doc.font('Helvetica-Bold').fontSize(11).fillColor(INK);
  // The buyer's block ends before the facts' labels begin.
  const buyerWidth = Math.min(250, width - 280);
  doc.text(printable(invoice.buyer.name ?? invoice.buyer.email ?? 'Customer'), left, blockTop + 14, { width: buyerWidth });
  doc.font('Helvetica').fontSize(9).fillColor(INK);
  if (invoice.buyer.name && invoice.buyer.email) doc.text(printable(invoice.buyer.email), { width: buyerWidth });
  for (const line of invoice.buyer.address) doc.text(printable(line), { width: buyerWidth });
  y = Math.max(doc.y, factsBottom) + 30;

  // Lines.
  const qtyX = right - 170;
  const amountX = right - 110;
  const header = (at: number) => {
    doc.font('Helvetica-Bold').fontSize(9).fillColor(MUTED);
    put('DESCRIPTION', left, at);
    put('QTY', qtyX, at, { width: 50, align: 'right' });
    put('AMOUNT', amountX, at, { width: 110, align: 'right' });
    doc.moveTo(left, at + 14).lineTo(right, at + 14).lineWidth(0.75).strokeColor(RULE).stroke();
    return at + 22;
  };
  y = header(y);
  const bottomLimit = doc.page.height - doc.page.margins.bottom - 60;
  for (const line of invoice.lines) {
    doc.font('Helvetica').fontSize(10).fillColor(INK);
    const description = printable(line.description || 'Item');
    const height = doc.heightOfString(description, { width: qtyX - left - 20 });
    if (y + height > bottomLimit) {
      doc.addPage();
      y = header(doc.page.margins.top);
      doc.font('Helvetica').fontSize(10).fillColor(INK);
    }
    doc.text(description, left, y, { width: qtyX - left - 20 });
    put(String(line.quantity), qtyX, y, { width: 50, align: 'right' });
    put(moneyText(line.amountMinor, invoice.currency), amountX, y, { width: 110, align: 'right' });
    y += Math.max(height, 12) + 8;
    doc.moveTo(left, y - 4).lineTo(right, y - 4).lineWidth(0.5).strokeColor(RULE).stroke();
  }

  // Totals.
  if (y + 120 > doc.page.height - doc.page.margins.bottom) {
    doc.addPage();
    y = doc.page.margins.top;
  }
  y += 8;
  const rate = percentText(invoice.taxRateBp);
  const where = invoice.taxCountry ? `, ${countryName(invoice.taxCountry)}` : '';
  const taxLabel = invoice.taxBehavior === 'INCLUSIVE' ? `Tax included (${rate}%${where})` : `Tax (${rate}%${where})`;
  const totals: [string, string, boolean][] = [
    ['Subtotal', moneyText(invoice.subtotalMinor, invoice.currency), false],
    ...(invoice.discountMinor !== 0
      ? ([['Discount', moneyText(-invoice.discountMinor, invoice.currency), false]] as [string, string, boolean][])
      : []),
    [taxLabel, moneyText(invoice.taxMinor, invoice.currency), false],
    ['Total', moneyText(invoice.totalMinor, invoice.currency), true],
    invoice.status === 'PAID'
      ? ['Amount paid', moneyText(invoice.totalMinor, invoice.currency), false]
      : ['Amount due', moneyText(invoice.totalMinor, invoice.currency), true],
  ];
  for (const [label, value, strong] of totals) {
    if (label === 'Total') {
      doc.moveTo(right - 260, y - 4).lineTo(right, y - 4).lineWidth(0.75).strokeColor(RULE).stroke();
    }
    doc.font(strong ? 'Helvetica-Bold' : 'Helvetica').fontSize(strong ? 11 : 10).fillColor(INK);
    put(label, right - 260, y, { width: 150 });
    put(value, right - 150, y, { width: 150, align: 'right' });
    y += strong ? 18 : 15;
  }
  for (const note of invoice.notes ?? []) {
    doc.font('Helvetica').fontSize(9).fillColor(INK);
    put(note, left, y + 6, { width, lineBreak: true });
    y = doc.y;
  }

  // Footer on every page.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const footerY = doc.page.height - doc.page.margins.bottom - 20;
    doc.font('Helvetica').fontSize(8).fillColor(MUTED);
    put(`${invoice.number} - page ${i - range.start + 1} of ${range.count}`, left, footerY, { width, align: 'center' });
  }

  doc.end();
  return done;
}
