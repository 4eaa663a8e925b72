/**
 * How readable a text colour is on a background: WCAG 2's contrast ratio of two sRGB colours
 * written as #RGB or #RRGGBB (other CSS colours are not judged). 4.5:1 is WCAG's minimum for
 * text of the banner's size.
 */
export const READABLE_CONTRAST = 4.5;

function channels(hex: string): [number, number, number] | null {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!match) return null;
  const digits = match[1]!.length === 3 ? [...match[1]!].map((d) => d + d).join('') : match[1]!;
  return [0, 2, 4].map((at) => parseInt(digits.slice(at, at + 2), 16) / 255) as [number, number, number];
}

function luminance([r, g, b]: [number, number, number]): number {
  const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The ratio, from 1 to 21; null when either colour is not written in hex. */
export function contrastRatio(text: string, background: string): number | null {
  const fg = channels(text);
  const bg = channels(background);
  if (!fg || !bg) return null;
  const [light, dark] = [luminance(fg), luminance(bg)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The banner's text colours whose contrast on its background is under READABLE_CONTRAST, with their ratio (one decimal, rounded down). */
export function hardToRead(banner: { backgroundColor: string; fontColor: string; highlightFontColor: string }): { field: 'fontColor' | 'highlightFontColor'; ratio: number }[] {
  return (['fontColor', 'highlightFontColor'] as const).flatMap((field) => {
    const ratio = contrastRatio(banner[field], banner.backgroundColor);
    return ratio !== null && ratio < READABLE_CONTRAST ? [{ field, ratio: Math.floor(ratio * 10) / 10 }] : [];
  });
}
