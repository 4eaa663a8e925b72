/** The line table: description in words, quantity, unit price, discount, tax rate, tax and net amount. */
import { INK, MUTED, RULE, type Canvas } from './canvas.js';
import type { PdfDocument, PdfLine } from './document.js';
import { BOLD, REGULAR } from './fonts.js';

type NumberColumn = Exclude<keyof PdfLine, 'description'>;

/** The numeric columns, right-aligned, from the right margin leftwards: [key, width]. */
const NUMBER_COLUMNS: Array<[NumberColumn, number]> = [
  ['net', 70],
  ['tax', 58],
  ['taxRate', 42],
  ['discount', 55],
  ['unitPrice', 62],
  ['quantity', 42],
];
const GAP = 4;
/** Drawn left to right, so that text extractors and screen readers read a row in order. */
const READING_ORDER = NUMBER_COLUMNS.map(([key]) => key).reverse();

function columnsOf(c: Canvas): { description: number; x: Record<NumberColumn, [number, number]> } {
  let x = c.right;
  const at = {} as Record<NumberColumn, [number, number]>;
  for (const [key, width] of NUMBER_COLUMNS) {
    x -= width;
    at[key] = [x, width - GAP];
  }
  return { description: x - c.left - 8, x: at };
}

function drawHeading(c: Canvas, d: PdfDocument, top: number): number {
  const { description, x } = columnsOf(c);
  c.doc.font(REGULAR).fontSize(8).fillColor(MUTED);
  c.put(d.amountsIn, c.left, top, { width: c.width, align: 'right' });
  const y = top + 14;
  c.doc.font(BOLD).fontSize(7.5).fillColor(MUTED);
  c.put(d.columns.description, c.left, y, { width: description });
  for (const key of READING_ORDER) c.put(d.columns[key], x[key][0], y, { width: x[key][1], align: 'right' });
  c.doc.moveTo(c.left, y + 12).lineTo(c.right, y + 12).lineWidth(0.75).strokeColor(RULE).stroke();
  return y + 19;
}

/** The lines from `top`, over as many pages as they take; the y below the last. */
export function drawLines(c: Canvas, d: PdfDocument, top: number): number {
  const { description, x } = columnsOf(c);
  let y = drawHeading(c, d, top);
  for (const line of d.lines) {
    c.doc.font(REGULAR).fontSize(9).fillColor(INK);
    const words = c.printable(line.description || '—');
    const height = c.doc.heightOfString(words, { width: description });
    if (y + height > c.bottom()) {
      c.doc.addPage();
      y = drawHeading(c, d, c.doc.page.margins.top);
      c.doc.font(REGULAR).fontSize(9).fillColor(INK);
    }
    c.doc.text(words, c.left, y, { width: description });
    for (const key of READING_ORDER) c.put(line[key], x[key][0], y, { width: x[key][1], align: 'right' });
    y += Math.max(height, 11) + 7;
    c.doc.moveTo(c.left, y - 4).lineTo(c.right, y - 4).lineWidth(0.5).strokeColor(RULE).stroke();
  }
  return y;
}
