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

const regionNames = new Map<string, Intl.DisplayNames>();

/** The country's name in `language` ("DE" -> "Germany", "Deutschland"); the code when unknown. */
export function countryName(code: string, language = 'en'): string {
  try {
    let names = regionNames.get(language);
    if (!names) {
      names = new Intl.DisplayNames([language], { type: 'region' });
      regionNames.set(language, names);
    }
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}
