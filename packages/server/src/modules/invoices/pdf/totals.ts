/** Below the lines: the taxable amount and tax per rate, then the totals. */
import { INK, MUTED, RULE, type Canvas } from './canvas.js';
import type { PdfDocument } from './document.js';
import { BOLD, REGULAR } from './fonts.js';

/** Moves to a new page when `needed` points do not fit below `y`; the y to draw at. */
function room(c: Canvas, y: number, needed: number): number {
  if (y + needed <= c.bottom()) return y;
  c.doc.addPage();
  return c.doc.page.margins.top;
}

/** The table of rates (rate, net, tax) on the right; the y below it. */
export function drawRates(c: Canvas, d: PdfDocument, top: number): number {
  if (d.rates.rows.length === 0) return top;
  let y = room(c, top + 8, 20 + 14 * d.rates.rows.length);
  const x = c.right - 300;
  const cells = (row: [string, string, string]) => {
    c.put(row[0], x, y, { width: 80 });
    c.put(row[1], x + 80, y, { width: 110, align: 'right' });
    c.put(row[2], x + 190, y, { width: 110, align: 'right' });
  };
  c.doc.font(BOLD).fontSize(8).fillColor(MUTED);
  cells(d.rates.heading);
  c.doc.moveTo(x, y + 11).lineTo(c.right, y + 11).lineWidth(0.5).strokeColor(RULE).stroke();
  y += 16;
  c.doc.font(REGULAR).fontSize(9).fillColor(INK);
  for (const row of d.rates.rows) {
    cells(row);
    y += 14;
  }
  return y + 6;
}

/** The totals, label and amount, on the right; the y below them. */
export function drawTotals(c: Canvas, d: PdfDocument, top: number): number {
  let y = room(c, top + 4, 18 * d.totals.length + 8);
  for (const row of d.totals) {
    if (row.ruleAbove) c.doc.moveTo(c.right - 300, y - 4).lineTo(c.right, y - 4).lineWidth(0.75).strokeColor(RULE).stroke();
    c.doc.font(row.strong ? BOLD : REGULAR).fontSize(row.strong ? 11 : 10).fillColor(INK);
    c.put(row.label, c.right - 300, y, { width: 170 });
    c.put(row.value, c.right - 130, y, { width: 130, align: 'right' });
    y += row.strong ? 18 : 15;
  }
  return y;
}
