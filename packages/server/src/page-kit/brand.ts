/**
 * The seller's brand colour on hosted pages, under a Content-Security-Policy that allows
 * no inline style: a stylesheet per colour (`brand-1a7f5a.css`, immutable, served beside
 * the page's own) sets the accent the page's stylesheet uses, made accessible first.
 */
import { accessibleAccent } from '../lib/contrast.js';

const BRAND_FILE = /^brand-([0-9a-f]{6})\.css$/;

/** The stylesheet's file name for a brand colour; null: the pages' own blue. */
export function brandStylesheet(color: string | null | undefined): string | null {
  return color && /^#[0-9A-Fa-f]{6}$/.test(color) ? `brand-${color.slice(1).toLowerCase()}.css` : null;
}

/** The asset of a brand stylesheet's name; null for any other file. */
export function brandAsset(file: string): { type: string; body: string } | null {
  const match = BRAND_FILE.exec(file);
  if (!match) return null;
  return { type: 'text/css; charset=utf-8', body: `:root{--accent:${accessibleAccent(`#${match[1]}`)}}\n` };
}
