/**
 * An A4 document drawn with pdfkit's standard fonts: the seller and the title at the top, the
 * buyer and the facts below, the lines, the amounts per tax rate, the totals, notes, and a
 * footer with the number and page on every page.
 */
import { canvasOf, INK, MUTED, type Canvas } from './canvas.js';
import type { PdfDocument } from './document.js';
import { drawLines } from './lines.js';
import { printable } from './text.js';
import { BOLD, cjkFont, REGULAR, registerFaces } from './fonts.js';
import { drawRates, drawTotals } from './totals.js';

const LOGO_BOX = { width: 160, height: 44 };

/** The logo at the top left, scaled to fit its box; the y below it. */
function drawLogo(c: Canvas, logo: NonNullable<PdfDocument['logo']>): number {
  const scale = Math.min(LOGO_BOX.width / logo.width, LOGO_BOX.height / logo.height, 1);
  c.doc.image(Buffer.from(logo.bytes), c.left, 46, { width: logo.width * scale, height: logo.height * scale });
  return 46 + logo.height * scale + 10;
}

/** The seller (under their logo) on the left, the title and badge on the right; the y below them. */
function drawHeader(c: Canvas, d: PdfDocument): number {
  const { doc, left, width } = c;
  const top = d.logo ? drawLogo(c, d.logo) : 50;
  doc.font(BOLD).fontSize(18).fillColor(INK);
  doc.text(c.printable(d.seller.name), left, top, { width: width * 0.6 });
  doc.font(REGULAR).fontSize(9).fillColor(MUTED);
  for (const line of d.seller.lines) doc.text(c.printable(line), { width: width * 0.6 });
  const bottom = doc.y;
  doc.font(BOLD).fontSize(22).fillColor(INK);
  c.put(d.title, left, 48, { width, align: 'right' });
  if (d.badge) {
    doc.font(BOLD).fontSize(11).fillColor(d.badge.colour);
    c.put(d.badge.text, left, 76, { width, align: 'right' });
  }
  return Math.max(bottom, 100) + 24;
}

/** The facts on the right, the buyer on the left, from `top`; the y below both. */
function drawParties(c: Canvas, d: PdfDocument, top: number): number {
  const { doc, left, right, width } = c;
  let y = top;
  for (const [label, value] of d.facts) {
    doc.font(REGULAR).fontSize(9).fillColor(MUTED);
    c.put(label, right - 270, y, { width: 95 });
    doc.font(BOLD).fillColor(INK);
    // Wide enough for a 29-character id (decision 0044) on one line.
    c.put(value, right - 175, y, { width: 175, align: 'right' });
    y += 15;
  }
  const factsBottom = y;
  doc.font(REGULAR).fontSize(9).fillColor(MUTED);
  c.put(d.buyerHeading, left, top);
  const buyerWidth = Math.min(250, width - 285);
  doc.font(BOLD).fontSize(11).fillColor(INK);
  doc.text(c.printable(d.buyer.name), left, top + 14, { width: buyerWidth });
  doc.font(REGULAR).fontSize(9).fillColor(INK);
  for (const line of d.buyer.lines) doc.text(c.printable(line), { width: buyerWidth });
  return Math.max(doc.y, factsBottom) + 26;
}

function drawNotes(c: Canvas, d: PdfDocument, top: number): void {
  let y = top + 10;
  for (const note of d.notes) {
    c.doc.font(REGULAR).fontSize(8).fillColor(MUTED);
    const height = c.doc.heightOfString(c.printable(note), { width: c.width });
    if (y + height > c.bottom()) {
      c.doc.addPage();
      y = c.doc.page.margins.top;
    }
    c.doc.text(c.printable(note), c.left, y, { width: c.width });
    y = c.doc.y + 4;
  }
}

function drawFooters(c: Canvas, d: PdfDocument): void {
  const range = c.doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    c.doc.switchToPage(i);
    const y = c.doc.page.height - c.doc.page.margins.bottom - 20;
    c.doc.font(REGULAR).fontSize(8).fillColor(MUTED);
    c.put(d.footer(i - range.start + 1, range.count), c.left, y, { width: c.width, align: 'center' });
  }
}

/** The document as PDF bytes. */
export async function renderDocument(d: PdfDocument): Promise<Buffer> {
  // Loaded on first use: most processes (and every CLI command) never draw a document.
  const { default: PDFDocument } = await import('pdfkit');
  // Japanese is drawn with an embedded font (fonts.ts); documents in other languages with the standard ones.
  const embedded = d.script === 'cjk' ? cjkFont() : null;
  const info = embedded ? (value: string) => value : printable;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    bufferPages: true,
    info: { Title: info(`${d.title} ${d.number}`), Author: info(d.seller.name), Subject: info(d.subject), Creator: 'Billow', CreationDate: d.createdAt },
  });
  registerFaces(doc, embedded);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const c = canvasOf(doc, embedded !== null);
  let y = drawParties(c, d, drawHeader(c, d));
  y = drawLines(c, d, y);
  y = drawRates(c, d, y);
  y = drawTotals(c, d, y);
  drawNotes(c, d, y);
  drawFooters(c, d);
  doc.end();
  return done;
}
