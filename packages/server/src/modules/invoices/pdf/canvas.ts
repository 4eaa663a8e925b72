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
  /** Text on one line, made printable in the document's font. */
  put(value: string, x: number, y: number, options?: PDFKit.Mixins.TextOptions): void;
  /** A text as the document's font can print it (the standard fonts: Windows-1252; an embedded font: as it is). */
  printable(value: string): string;
  /** The lowest y the body may reach before the footer. */
  bottom(): number;
}

export function canvasOf(doc: PDFKit.PDFDocument, embeddedFont = false): Canvas {
  const printed = embeddedFont ? (value: string) => value : printable;
  const left = doc.page.margins.left;
  const right = doc.page.width - doc.page.margins.right;
  return {
    doc,
    left,
    right,
    width: right - left,
    put: (value, x, y, options = {}) => {
      doc.text(printed(value), x, y, { lineBreak: false, ...options });
    },
    printable: printed,
    bottom: () => doc.page.height - doc.page.margins.bottom - 40,
  };
}

