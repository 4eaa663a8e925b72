/**
 * A credit note as an A4 PDF: the title, its number, the invoice it corrects and the date;
 * the seller and the buyer; the lines with their tax; the totals per tax rate and the total
 * credited. Text goes through the invoice's `printable` (the standard fonts' characters).
 */
import { percentText } from '../billing/rounding.compute.js';
import { moneyText, printable } from '../invoices/pdf.js';
import { taxTotals, type CreditLine } from './lines.compute.js';

export interface CreditNotePdf {
  number: string;
  /** The corrected invoice's number (or id); null when there is none. */
  invoiceReference: string | null;
  reason: 'REFUND' | 'PRORATION';
  issuedOn: Date;
  seller: { name: string; details: string[] };
  buyer: { name: string; details: string[] };
  currency: string;
  lines: CreditLine[];
  subtotalMinor: number;
  taxMinor: number;
  totalMinor: number;
}

const INK = '#1f2328';
const MUTED = '#656d76';
const RULE = '#d0d7de';
const REASONS = { REFUND: 'Refund', PRORATION: 'Unused time of a plan change' } as const;

type Doc = PDFKit.PDFDocument;

interface Frame {
  doc: Doc;
  left: number;
  right: number;
  put: (value: string, x: number, y: number, options?: PDFKit.Mixins.TextOptions) => void;
}

function header(f: Frame, note: CreditNotePdf): number {
  const { doc, left, right } = f;
  const width = right - left;
  // The seller's block ends before the facts' labels begin.
  const sellerWidth = right - 300 - left;
  doc.font('Helvetica-Bold').fontSize(16).fillColor(INK);
  doc.text(printable(note.seller.name), left, 50, { width: sellerWidth });
  doc.font('Helvetica').fontSize(9).fillColor(MUTED);
  for (const line of note.seller.details) doc.text(printable(line), { width: sellerWidth });
  const sellerBottom = doc.y;
  doc.font('Helvetica-Bold').fontSize(22).fillColor(INK);
  f.put('Credit note', left, 48, { width, align: 'right' });
  const facts: [string, string][] = [
    ['Credit note number', note.number],
    ['Corrects invoice', note.invoiceReference ?? '-'],
    ['Date', note.issuedOn.toISOString().slice(0, 10)],
    ['Reason', REASONS[note.reason]],
  ];
  let y = 80;
  for (const [label, value] of facts) {
    doc.font('Helvetica').fontSize(9).fillColor(MUTED);
    f.put(label, right - 290, y, { width: 100 });
    doc.font('Helvetica-Bold').fillColor(INK);
    f.put(value, right - 190, y, { width: 190, align: 'right' });
    y += 15;
  }
  return Math.max(sellerBottom, y) + 24;
}

function buyerBlock(f: Frame, note: CreditNotePdf, top: number): number {
  const { doc, left } = f;
  doc.font('Helvetica').fontSize(9).fillColor(MUTED);
  f.put('CREDITED TO', left, top);
  doc.font('Helvetica-Bold').fontSize(11).fillColor(INK);
  doc.text(printable(note.buyer.name), left, top + 14, { width: 280 });
  doc.font('Helvetica').fontSize(9).fillColor(INK);
  for (const line of note.buyer.details) doc.text(printable(line), { width: 280 });
  return doc.y + 30;
}

function lineTable(f: Frame, note: CreditNotePdf, top: number): number {
  const { doc, left, right } = f;
  const qtyX = right - 250;
  const rateX = right - 190;
  const taxX = right - 135;
  const amountX = right - 80;
  doc.font('Helvetica-Bold').fontSize(9).fillColor(MUTED);
  f.put('DESCRIPTION', left, top);
  f.put('QTY', qtyX, top, { width: 40, align: 'right' });
  f.put('TAX RATE', rateX, top, { width: 50, align: 'right' });
  f.put('TAX', taxX, top, { width: 55, align: 'right' });
  f.put('AMOUNT', amountX, top, { width: 80, align: 'right' });
  doc.moveTo(left, top + 14).lineTo(right, top + 14).lineWidth(0.75).strokeColor(RULE).stroke();
  let y = top + 22;
  for (const line of note.lines) {
    doc.font('Helvetica').fontSize(10).fillColor(INK);
    const description = printable(line.description || 'Credit');
    const height = doc.heightOfString(description, { width: qtyX - left - 10 });
    doc.text(description, left, y, { width: qtyX - left - 10 });
    f.put(String(line.quantity), qtyX, y, { width: 40, align: 'right' });
    f.put(`${percentText(line.taxRateBp)}%`, rateX, y, { width: 50, align: 'right' });
    f.put(moneyText(line.taxMinor, note.currency), taxX - 25, y, { width: 80, align: 'right' });
    f.put(moneyText(line.amountMinor, note.currency), amountX - 20, y, { width: 100, align: 'right' });
    y += Math.max(height, 12) + 8;
    doc.moveTo(left, y - 4).lineTo(right, y - 4).lineWidth(0.5).strokeColor(RULE).stroke();
  }
  return y + 8;
}

function totals(f: Frame, note: CreditNotePdf, top: number): void {
  const { doc, right } = f;
  const rows: [string, string, boolean][] = [
    ['Subtotal credited', moneyText(note.subtotalMinor, note.currency), false],
    ...taxTotals(note.lines).map(
      (t): [string, string, boolean] => [`Tax ${percentText(t.taxRateBp)}% on ${moneyText(t.taxableMinor, note.currency)}`, moneyText(t.taxMinor, note.currency), false],
    ),
    ['Total credited', moneyText(note.totalMinor, note.currency), true],
  ];
  let y = top;
  for (const [label, value, strong] of rows) {
    if (strong) doc.moveTo(right - 280, y - 4).lineTo(right, y - 4).lineWidth(0.75).strokeColor(RULE).stroke();
    doc.font(strong ? 'Helvetica-Bold' : 'Helvetica').fontSize(strong ? 11 : 10).fillColor(INK);
    f.put(label, right - 280, y, { width: 170 });
    f.put(value, right - 130, y, { width: 130, align: 'right' });
    y += strong ? 18 : 15;
  }
}

export async function renderCreditNotePdf(note: CreditNotePdf): Promise<Buffer> {
  // Loaded on first use, as for invoices.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `Credit note ${note.number}`, Author: printable(note.seller.name), Creator: 'Billow', CreationDate: note.issuedOn },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const frame: Frame = {
    doc,
    left: doc.page.margins.left,
    right: doc.page.width - doc.page.margins.right,
    put: (value, x, y, options = {}) => void doc.text(printable(value), x, y, { lineBreak: false, ...options }),
  };
  const afterHeader = header(frame, note);
  const afterBuyer = buyerBlock(frame, note, afterHeader);
  totals(frame, note, lineTable(frame, note, afterBuyer));
  doc.end();
  return done;
}
