/**
 * WCAG 2 contrast of sRGB colours, for the seller's brand colour on hosted pages: links
 * and buttons must reach 4.5:1 against white (AA for normal text) whatever colour the
 * seller picked, so a light colour is darkened, keeping its hue, until it does.
 */
const AA_NORMAL_TEXT = 4.5;

type Rgb = [number, number, number];

function rgbOf(hex: string): Rgb {
  const value = Number.parseInt(hex.replace(/^#/, ''), 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

const hexOf = (rgb: Rgb): string => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`.toUpperCase();

function luminance([r, g, b]: Rgb): number {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The contrast ratio of two colours (#RRGGBB), from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [luminance(rgbOf(a)), luminance(rgbOf(b))].sort((x, y) => y - x) as [number, number];
  return (la + 0.05) / (lb + 0.05);
}

/** The brand colour itself when white text on it (and it on white) reaches AA, else the lightest darker shade that does. */
export function accessibleAccent(brand: string): string {
  const base = rgbOf(brand);
  for (let step = 0; step <= 100; step++) {
    const shade = hexOf(base.map((c) => (c * (100 - step)) / 100) as Rgb);
    if (contrastRatio(shade, '#FFFFFF') >= AA_NORMAL_TEXT) return shade;
  }
  return '#000000';
}
