import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, type Page } from '../api';
import { useAction, useResource } from '../data';
import { countryName, day } from '../format';
import { Badge, ErrorNote, Field, Select, Section, Table } from '../ui/kit';
import { t } from '../i18n/language';
import { GROUPS, percentOf } from './promotion-draft';
import { GroupPercentFields, type PppGroup } from './PromotionGroups';
import type { Plan, Product } from './types';

/** Promotions by the buyer's country (the management API under /promotion-rules/, docs/catalog.md). */
interface Promotion {
  id: string;
  name: string;
  productId: string;
  planIdentifiers: string[] | null;
  pppDiscounts: Array<{ group: number; percentage: number }>;
  countryOverrides: Array<{ countryCode: string; percentage: number }>;
  couponCode: string | null;
  enabled: boolean;
  createdOn: string;
}

function NewPromotion({ products, groups, onDone }: { products: Product[]; groups: PppGroup[]; onDone(): void }) {
  const [name, setName] = useState('');
  const [product, setProduct] = useState(products[0]?.id ?? '');
  const [coupon, setCoupon] = useState('');
  const [percents, setPercents] = useState<string[]>(GROUPS.map(() => ''));
  const create = useAction((body: object) => api<Promotion>('POST', '/promotion-rules/', { body }));
  async function submit(event: FormEvent) {
    event.preventDefault();
    const pppDiscounts = GROUPS.map((group, i) => ({ group, percentage: percentOf(percents[i] ?? '') }));
    if ((await create.perform({ name, productId: product, couponCode: coupon || null, pppDiscounts })) === undefined) return;
    setName('');
    setCoupon('');
    setPercents(GROUPS.map(() => ''));
    onDone();
  }
  if (products.length === 0) return <p>{t('promotions.noProduct')}</p>;
  return (
    <form className="row-form" aria-label={t('promotions.form')} onSubmit={submit}>
      <Field label={t('promotions.name')} required value={name} onChange={(e) => setName(e.target.value)} />
      <Select label={t('promotions.forProduct')} options={products.map((p) => [p.id, p.name])} value={product} onChange={(e) => setProduct(e.target.value)} />
      <Field label={t('promotions.coupon')} value={coupon} onChange={(e) => setCoupon(e.target.value.toUpperCase())} hint={t('promotions.couponHint')} />
      <GroupPercentFields groups={groups} values={percents} onChange={setPercents} />
      <button type="submit" disabled={create.busy}>
        {t('promotions.create')}
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
        {promotion.enabled ? t('promotions.pause') : t('promotions.resume')}
        <span className="visually-hidden"> {promotion.name}</span>
      </button>
      <button type="button" className="danger" disabled={archive.busy} onClick={() => void archive.perform().then(after)}>
        {t('promotions.end')}<span className="visually-hidden"> {promotion.name}</span>
      </button>
      <ErrorNote error={toggle.error ?? archive.error} />
    </div>
  );
}

const discounts = (p: Promotion) => {
  const groups = p.pppDiscounts.filter((d) => d.percentage > 0).map((d) => t('promotions.group', { group: d.group, percent: d.percentage }));
  const countries = p.countryOverrides.map((c) => t('promotions.country', { country: countryName(c.countryCode), percent: c.percentage }));
  return [...groups, ...countries].join(', ') || t('promotions.noneYet');
};

/** Live promotions (ended ones leave the list): what they give where, paused or running, each linked to its page; create, pause, end. */
export function Promotions({ products, plans, canWrite }: { products: Product[]; plans: Plan[]; canWrite: boolean }) {
  const list = useResource(async () => {
    const [promotions, groups] = await Promise.all([api<Page<Promotion>>('GET', '/promotion-rules/', { query: { page_size: 50 } }), api<{ groups: PppGroup[] }>('GET', '/promotion-rules/ppp-groups/')]);
    return { promotions: promotions.results, groups: groups.groups };
  }, []);
  const planName = (identifier: string) => plans.find((p) => p.identifier === identifier)?.name ?? identifier;
  const productName = (id: string) => products.find((p) => p.id === id)?.name ?? t('promotions.aProduct');
  return (
    <Section title={t('promotions.title')}>
      <ErrorNote error={list.error} />
      <Table
        caption={t('promotions.caption')}
        rows={list.data?.promotions}
        rowKey={(p) => p.id}
        empty={t('promotions.empty')}
        columns={[
          { title: t('common.name'), cell: (p) => <Link to={`/selling/promotions/${encodeURIComponent(p.id)}`}>{p.name}</Link> },
          { title: t('selling.product'), cell: (p) => productName(p.productId) },
          { title: t('promotions.plans'), cell: (p) => (p.planIdentifiers ? p.planIdentifiers.map((id) => planName(id)).join(', ') : t('promotion.allPlans')) },
          { title: t('selling.percentOff'), cell: discounts },
          { title: t('promotions.couponColumn'), cell: (p) => (p.couponCode ? <code>{p.couponCode}</code> : '—') },
          { title: t('licenses.state'), cell: (p) => (p.enabled ? <Badge tone="good">{t('promotions.running')}</Badge> : <Badge tone="warn">{t('promotions.paused')}</Badge>) },
          { title: t('common.since'), nowrap: true, cell: (p) => day(p.createdOn) },
          ...(canWrite ? [{ title: t('common.actions'), cell: (p: Promotion) => <PromotionActions promotion={p} onDone={list.reload} /> }] : []),
        ]}
      />
      {canWrite && list.data ? <NewPromotion products={products} groups={list.data.groups} onDone={list.reload} /> : null}
    </Section>
  );
}
