/**
 * The fonts a document is drawn with (decision 0064, amended by 0072). Latin-script documents
 * use pdfkit's standard fonts (Helvetica; Windows-1252, nothing to embed). Japanese needs a
 * font with its glyphs: Billow embeds (subsetted) the first of the system's Japanese fonts it
 * finds; Debian's fonts-ipaexfont-gothic (3.3 MB) is the one .ci/run installs. Without one,
 * a Japanese document falls back to English.
 */
import fs from 'node:fs';

/** Where Debian and Ubuntu put the Japanese fonts pdfkit can embed (a TrueType collection names its face). */
const CJK_CANDIDATES: Array<{ path: string; face?: string }> = [
  { path: '/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf' },
  { path: '/usr/share/fonts/truetype/fonts-japanese-gothic.ttf' },
  { path: '/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf' },
  { path: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', face: 'NotoSansCJKjp-Regular' },
];

export interface EmbeddedFont {
  path: string;
  face?: string;
}

let found: EmbeddedFont | null | undefined;
let bytes: Buffer | null = null;

/** The Japanese font this machine has, or null (looked up once per process). */
export function cjkFont(): EmbeddedFont | null {
  if (found === undefined) found = CJK_CANDIDATES.find((c) => fs.existsSync(c.path)) ?? null;
  return found;
}

/** The font file, read once and kept (some MB) by the first process that draws a Japanese document. */
function fontBytes(font: EmbeddedFont): Buffer {
  bytes ??= fs.readFileSync(font.path);
  return bytes;
}

/** The two faces the layout names: regular and bold. */
export const REGULAR = 'Body';
export const BOLD = 'Bold';

/** Registers the document's faces: the standard Helvetica pair, or the embedded font for both (it has no bold). */
export function registerFaces(doc: PDFKit.PDFDocument, embedded: EmbeddedFont | null): void {
  if (!embedded) {
    doc.registerFont(REGULAR, 'Helvetica');
    doc.registerFont(BOLD, 'Helvetica-Bold');
    return;
  }
  doc.registerFont(REGULAR, fontBytes(embedded), embedded.face as string);
  doc.registerFont(BOLD, fontBytes(embedded), embedded.face as string);
}
