/**
 * Which figures the Analytics page shows (decisions 0106, 0107): the whole business's, one
 * product's or one plan's, each counted as its own customers see it — the MRR, the
 * subscriptions and trials, and the cash of its orders.
 */
import { api, type Page } from '../api';
import { useResource } from '../data';
import { Select } from '../ui/kit';
import { t } from '../i18n/language';
import type { Plan, Product } from './types';

/** '' for the whole business, or `product:<identifier>` / `plan:<identifier>`. */
export type Segment = string;

/** The query parameters of a segment, for every series of the page, its CSV and its drill-down. */
export function segmentQuery(segment: Segment): { plan?: string; product?: string } {
  const [dimension, identifier] = [segment.slice(0, segment.indexOf(':')), segment.slice(segment.indexOf(':') + 1)];
  if (dimension === 'plan') return { plan: identifier };
  if (dimension === 'product') return { product: identifier };
  return {};
}

async function choicesOf(): Promise<Array<[string, string]>> {
  const [products, plans] = await Promise.all([
    api<Page<Product>>('GET', '/catalog/products/', { query: { page_size: 100 } }),
    api<Page<Plan>>('GET', '/catalog/plans/', { query: { page_size: 100 } }),
  ]);
  return [
    ['', t('analytics.wholeBusiness')],
    ...products.results.map((p): [string, string] => [`product:${p.identifier}`, t('analytics.productSegment', { name: p.name })]),
    ...plans.results.filter((p) => p.status !== 'draft').map((p): [string, string] => [`plan:${p.identifier}`, t('analytics.planSegment', { name: p.name })]),
  ];
}

export function SegmentPicker({ value, onChange }: { value: Segment; onChange(segment: Segment): void }) {
  const choices = useResource(choicesOf, []);
  if (!choices.data || choices.data.length <= 2) return null;
  return <Select label={t('analytics.figuresOf')} value={value} options={choices.data} onChange={(e) => onChange(e.target.value)} />;
}
