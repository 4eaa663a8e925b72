/**
 * Priced lines and a plan's contents in the buyer's words (decision 0068): the period named,
 * never its wire code; the stored description only for lines priced before their kind was
 * recorded.
 */
import { html, type SafeHtml } from './html.js';
import type { Translator } from './i18n.js';

/** A line of a quote or preview, as billing prices it (billing/types.ts QuoteLine). */
export interface PricedLine {
  description: string;
  kind?: string;
  name?: string;
  chargePeriod?: string;
  quantity?: number;
}

export function lineText(line: PricedLine, tr: Translator): string {
  if (line.name === undefined) return line.description;
  if (line.kind === 'plan' && line.chargePeriod) return tr.t('line.plan', { name: line.name, period: tr.period(line.chargePeriod) });
  if (line.kind === 'feature') return tr.t('line.feature', { name: line.name, quantity: line.quantity ?? 1 });
  if (line.kind === 'usage') return tr.t('line.usage', { name: line.name, quantity: line.quantity ?? 0 });
  if (line.kind === 'unused') return tr.t('line.unused', { name: line.name });
  if (line.kind === 'remaining') return tr.t('line.remaining', { name: line.name });
  return line.description;
}

/** What a plan grants of one feature (its entitlement): access, or an amount, per reset period or unlimited. */
export interface Included {
  name: string;
  type: 'BOOLEAN' | 'CUSTOMIZABLE' | 'METER';
  /** The amount granted; null when unlimited (or a plain access). */
  value: number | null;
  unlimited: boolean;
  /** How often a meter's allowance starts again (EVERY_MONTH …); null or NEVER: once. */
  reset: string | null;
}

function includedText(item: Included, { t }: Translator): string {
  if (item.type === 'BOOLEAN') return item.name;
  if (item.unlimited || item.value === null) return t('includes.unlimited', { name: item.name });
  if (item.type === 'METER' && item.reset && item.reset !== 'NEVER') return t('includes.limitPer', { name: item.name, value: item.value, reset: item.reset });
  return t('includes.limit', { name: item.name, value: item.value });
}

/** The plan's contents as a list under a heading; nothing when the plan lists none. */
export function includedList(items: Included[], tr: Translator): SafeHtml | null {
  if (items.length === 0) return null;
  return html`<div class="includes" id="includes"><p class="includes-title">${tr.t('includes.title')}</p>
<ul>${items.map((item) => html`<li>${includedText(item, tr)}</li>`)}</ul></div>`;
}
