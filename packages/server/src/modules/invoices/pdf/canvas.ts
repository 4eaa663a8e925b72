/** What the parts of a document are drawn with: the pdfkit document, its text area, the colours. */
import { printable } from './text.js';

export const INK = '#1f2328';
export const MUTED = '#656d76';
export const RULE = '#d0d7de';

/** The page and what is drawn on it: the pdfkit document, its text area and a cursor. */
export interface Canvas {
  doc: PDFKit.PDFDocument;
  left: number;
  right: number;
  width: number;
  /** Text on one line, made printable in the standard fonts. */
  put(value: string, x: number, y: number, options?: PDFKit.Mixins.TextOptions): void;
  /** The lowest y the body may reach before the footer. */
  bottom(): number;
}

export function canvasOf(doc: PDFKit.PDFDocument): Canvas {
  const left = doc.page.margins.left;
  const right = doc.page.width - doc.page.margins.right;
  return {
    doc,
    left,
    right,
    width: right - left,
    put: (value, x, y, options = {}) => {
      doc.text(printable(value), x, y, { lineBreak: false, ...options });
    },
    bottom: () => doc.page.height - doc.page.margins.bottom - 40,
  };
}

