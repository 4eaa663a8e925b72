import { useState, type FormEvent } from 'react';
import { api, type Page } from '../api';
import { useAction, useResource } from '../data';
import { day } from '../format';
import { Badge, ErrorNote, Field, Select, Section, Table } from '../ui/kit';
import type { Product } from './types';

/** Promotions by the buyer's country (the management API under /promotion-rules/, docs/catalog.md). */
interface Promotion {
  id: string;
  name: string;
  productId: string;
  pppDiscounts: Array<{ group: number; percentage: number }>;
  countryOverrides: Array<{ countryCode: string; percentage: number }>;
  couponCode: string | null;
  enabled: boolean;
  createdOn: string;
}
interface PppGroup {
  group: number;
  description: string;
}

const GROUPS = [1, 2, 3, 4, 5];

function NewPromotion({ products, groups, onDone }: { products: Product[]; groups: PppGroup[]; onDone(): void }) {
  const [name, setName] = useState('');
  const [product, setProduct] = useState(products[0]?.id ?? '');
  const [coupon, setCoupon] = useState('');
  const [percents, setPercents] = useState<string[]>(GROUPS.map(() => ''));
  const create = useAction((body: object) => api<Promotion>('POST', '/promotion-rules/', { body }));
  async function submit(event: FormEvent) {
    event.preventDefault();
    // Text that is not a number goes as typed, for the API to refuse in its own words.
    const pppDiscounts = GROUPS.map((group, i) => ({ group, percentage: percents[i]?.trim() ? (Number.isFinite(Number(percents[i])) ? Number(percents[i]) : percents[i]) : 0 }));
    if ((await create.perform({ name, productId: product, couponCode: coupon || null, pppDiscounts })) === undefined) return;
    setName('');
    setCoupon('');
    setPercents(GROUPS.map(() => ''));
    onDone();
  }
  if (products.length === 0) return <p>Create a product in the catalog first.</p>;
  return (
    <form className="row-form" aria-label="New promotion" onSubmit={submit}>
      <Field label="Promotion name" required value={name} onChange={(e) => setName(e.target.value)} />
      <Select label="For product" options={products.map((p) => [p.id, p.name])} value={product} onChange={(e) => setProduct(e.target.value)} />
      <Field label="Coupon code" value={coupon} onChange={(e) => setCoupon(e.target.value.toUpperCase())} hint="Given to a visitor who gets the discount (optional)" />
      <fieldset className="field-group">
        <legend>Percent off for buyers in each price group (empty: none)</legend>
        {GROUPS.map((group, i) => (
          <Field
            key={group}
            label={`Percent off, price group ${group}`}
            inputMode="numeric"
            hint={groups.find((g) => g.group === group)?.description}
            value={percents[i]}
            onChange={(e) => setPercents(percents.map((p, j) => (j === i ? e.target.value : p)))}
          />
        ))}
      </fieldset>
      <button type="submit" disabled={create.busy}>
        Create promotion
      </button>
      <ErrorNote error={create.error} />
    </form>
  );
}

function PromotionActions({ promotion, onDone }: { promotion: Promotion; onDone(): void }) {
  const path = `/promotion-rules/${encodeURIComponent(promotion.id)}/`;
  const toggle = useAction(() => api('PATCH', path, { body: { enabled: !promotion.enabled } }));
  const archive = useAction(() => api('DELETE', path));
  const after = (result: unknown) => result !== undefined && onDone();
  return (
    <div className="actions">
      <button type="button" className="secondary" disabled={toggle.busy} onClick={() => void toggle.perform().then(after)}>
        {promotion.enabled ? 'Pause' : 'Resume'}
        <span className="visually-hidden"> {promotion.name}</span>
      </button>
      <button type="button" className="danger" disabled={archive.busy} onClick={() => void archive.perform().then(after)}>
        End<span className="visually-hidden"> {promotion.name}</span>
      </button>
      <ErrorNote error={toggle.error ?? archive.error} />
    </div>
  );
}

const discounts = (p: Promotion) => {
  const groups = p.pppDiscounts.filter((d) => d.percentage > 0).map((d) => `group ${d.group}: ${d.percentage} %`);
  const countries = p.countryOverrides.map((c) => `${c.countryCode}: ${c.percentage} %`);
  return [...groups, ...countries].join(', ') || 'None yet';
};

/** Live promotions (ended ones leave the list): what they give where, paused or running; create, pause, end. */
export function Promotions({ products, canWrite }: { products: Product[]; canWrite: boolean }) {
  const list = useResource(async () => {
    const [promotions, groups] = await Promise.all([api<Page<Promotion>>('GET', '/promotion-rules/', { query: { page_size: 50 } }), api<{ groups: PppGroup[] }>('GET', '/promotion-rules/ppp-groups/')]);
    return { promotions: promotions.results, groups: groups.groups };
  }, []);
  const productName = (id: string) => products.find((p) => p.id === id)?.name ?? 'A product';
  return (
    <Section title="Promotions by country">
      <ErrorNote error={list.error} />
      <Table
        caption="Promotions"
        rows={list.data?.promotions}
        rowKey={(p) => p.id}
        empty="No promotions yet."
        columns={[
          { title: 'Name', cell: (p) => p.name },
          { title: 'Product', cell: (p) => productName(p.productId) },
          { title: 'Percent off', cell: discounts },
          { title: 'Coupon', cell: (p) => (p.couponCode ? <code>{p.couponCode}</code> : '—') },
          { title: 'State', cell: (p) => (p.enabled ? <Badge tone="good">Running</Badge> : <Badge tone="warn">Paused</Badge>) },
          { title: 'Since', nowrap: true, cell: (p) => day(p.createdOn) },
          ...(canWrite ? [{ title: 'Actions', cell: (p: Promotion) => <PromotionActions promotion={p} onDone={list.reload} /> }] : []),
        ]}
      />
      {canWrite && list.data ? <NewPromotion products={products} groups={list.data.groups} onDone={list.reload} /> : null}
    </Section>
  );
}
