/**
 * A printable business document (decision 0064): an invoice today, a credit note next. Every
 * text is final (translated and formatted); the renderer only places it. Amounts in the line
 * table are plain decimals in the document's currency, which `amountsIn` names.
 */
export interface PdfParty {
  name: string;
  /** Address, tax ids, contacts: one printed line each. */
  lines: string[];
}

export interface PdfLine {
  description: string;
  quantity: string;
  unitPrice: string;
  discount: string;
  taxRate: string;
  tax: string;
  net: string;
}

export interface PdfTotal {
  label: string;
  value: string;
  strong?: boolean;
  /** A rule above the row (before the grand total). */
  ruleAbove?: boolean;
}

export interface PdfDocument {
  /** The seller's logo, drawn above their name (PNG or JPEG bytes, size in pixels). */
  logo?: { bytes: Uint8Array; width: number; height: number } | null;
  /** "INVOICE", "CREDIT NOTE", in the document's language. */
  title: string;
  number: string;
  /** The PDF's metadata title and subject. */
  subject: string;
  createdAt: Date;
  badge: { text: string; colour: string } | null;
  seller: PdfParty;
  buyerHeading: string;
  buyer: PdfParty;
  /** Number, dates, references: label and value. */
  facts: Array<[string, string]>;
  columns: PdfLine;
  amountsIn: string;
  lines: PdfLine[];
  /** The taxable amount and tax per rate: the heading row, then a row per rate. */
  rates: { heading: [string, string, string]; rows: Array<[string, string, string]> };
  totals: PdfTotal[];
  notes: string[];
  /** Each page's footer: the number and "page 1 of 2", in the document's language. */
  footer: (page: number, of: number) => string;
  /** The script of the document's language: Latin (the standard fonts) or CJK (an embedded font: fonts.ts). */
  script: 'latin' | 'cjk';
}
