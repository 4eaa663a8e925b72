import { inflateSync } from 'node:zlib';

/** A UTF-16BE hex string as text (`<feff…>` prefixes included). */
const utf16 = (hex: string) => Buffer.from(hex.replace(/^feff/i, ''), 'hex').swap16().toString('utf16le');

/**
 * The ToUnicode maps of a document's embedded fonts (pdfkit writes one per subset font:
 * `<start> <end> [<utf16> …]` ranges), merged: two-byte glyph code → text.
 */
function toUnicode(streams: string[]): Map<number, string> {
  const map = new Map<number, string>();
  for (const cmap of streams.filter((s) => s.includes('begincmap'))) {
    for (const range of cmap.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g)) {
      const start = parseInt(range[1]!, 16);
      const end = parseInt(range[2]!, 16);
      const target = range[3]!;
      if (target.startsWith('[')) {
        [...target.matchAll(/<([0-9a-fA-F]*)>/g)].forEach((m, i) => map.set(start + i, utf16(m[1]!)));
      } else {
        const first = utf16(target.slice(1, -1));
        for (let code = start; code <= end; code++) map.set(code, String.fromCodePoint(first.codePointAt(0)! + code - start));
      }
    }
  }
  return map;
}

/**
 * The text a pdfkit PDF shows: its content streams inflated, the hex strings of their TJ arrays
 * decoded (one byte a character in the standard fonts; two bytes a glyph, through the ToUnicode
 * map, in an embedded font such as the Japanese one), one run a line.
 */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const streams: string[] = [];
  for (const match of raw.matchAll(/\/Length (\d+)[^>]*>>\s*stream\r?\n/g)) {
    const start = match.index! + match[0].length;
    try {
      streams.push(inflateSync(Buffer.from(raw.slice(start, start + Number(match[1])), 'latin1')).toString('latin1'));
    } catch {
      continue; // an image or a font, not a page's content
    }
  }
  const glyphs = toUnicode(streams);
  const runs: string[] = [];
  for (const content of streams) {
    for (const array of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const hex = [...array[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1]).join('');
      if (glyphs.size === 0) {
        runs.push(Buffer.from(hex, 'hex').toString('latin1'));
        continue;
      }
      let text = '';
      for (let i = 0; i + 4 <= hex.length; i += 4) text += glyphs.get(parseInt(hex.slice(i, i + 4), 16)) ?? '';
      runs.push(text);
    }
  }
  return runs.join('\n');
}
