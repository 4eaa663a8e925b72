import { useState, type FormEvent } from 'react';
import { api, environmentPrefix, type Page } from '../api';
import { useAction, useResource } from '../data';
import { majorMoney, when } from '../format';
import { useCan, useSession } from '../session';
import { ActionButton, ChargePeriodSelect, Checkbox, ErrorNote, Field, Loading, Notice, PageTitle, Pager, Section, Select, StatusBadge, Table } from '../ui/kit';
import { t } from '../i18n/language';
import { Promotions } from './Promotions';
import type { CustomerRef, Plan, Product } from './types';

interface CheckoutSession {
  id: string;
  customer: CustomerRef | null;
  product: { name: string } | null;
  status: string;
  createdOn: string;
  checkoutUrl: string;
}
interface Discount {
  id: string;
  name: string;
  code: string | null;
  status: string;
  discountType: string;
  percentOff: number | null;
  amountsOff: Array<{ currency: string; amount: number }> | null;
  duration: string | null;
  timesRedeemed: number;
  maxRedemptions: number | null;
}

/** Builds a buy link (docs/checkout.md, section 4) from the catalog: nothing is stored, the link is the whole thing. */
function BuyLinkGenerator({ products, plans }: { products: Product[]; plans: Plan[] }) {
  const { environment } = useSession();
  const [product, setProduct] = useState(products[0]?.id ?? '');
  const identifier = products.find((x) => x.id === product)?.identifier;
  const ofProduct = plans.filter((p) => (p.product === product || p.product === identifier) && p.status !== 'draft');
  const [plan, setPlan] = useState('');
  const [period, setPeriod] = useState('MONTHLY');
  const [discounts, setDiscounts] = useState(false);
  const [successUrl, setSuccessUrl] = useState('');
  if (products.length === 0) return <p>{t('selling.noProduct')}</p>;
  const query = new URLSearchParams();
  const chosenPlan = plan || ofProduct[0]?.identifier;
  if (chosenPlan) query.set('plan_identifier', chosenPlan);
  query.set('charge_period', period);
  if (discounts) query.set('discounts_enabled', 'true');
  if (successUrl) query.set('success_url', successUrl);
  const link = `${window.location.origin}${environmentPrefix(environment)}/buy/${product}/?${query.toString()}`;
  return (
    <>
      <form className="row-form" aria-label={t('selling.buyLinkForm')} onSubmit={(event: FormEvent) => event.preventDefault()}>
        <Select label={t('selling.product')} options={products.map((p) => [p.id, p.name])} value={product} onChange={(e) => setProduct(e.target.value)} />
        <Select label={t('common.plan')} options={ofProduct.map((p) => [p.identifier, p.name])} value={chosenPlan ?? ''} onChange={(e) => setPlan(e.target.value)} />
        <ChargePeriodSelect value={period} onChange={setPeriod} />
        <Field label={t('selling.successUrl')} type="url" value={successUrl} onChange={(e) => setSuccessUrl(e.target.value)} hint={t('selling.successUrlHint')} />
        <Checkbox label={t('selling.acceptCodes')} checked={discounts} onChange={setDiscounts} />
      </form>
      <p className="buy-link">
        <span id="buy-link-label">{t('selling.buyLink')} </span>
        <a href={link} aria-describedby="buy-link-label" data-testid="buy-link">
          {link}
        </a>
      </p>
    </>
  );
}

function Sessions() {
  const [page, setPage] = useState(1);
  const list = useResource(() => api<Page<CheckoutSession>>('GET', '/checkout/sessions/', { query: { page, page_size: 10 } }), [page]);
  return (
    <Section title={t('selling.sessions')}>
      <ErrorNote error={list.error} />
      <Table
        caption={t('selling.sessions')}
        rows={list.data?.results}
        rowKey={(s) => s.id}
        empty={t('selling.noSessions')}
        columns={[
          { title: t('selling.session'), cell: (s) => (s.status === 'open' ? <a href={s.checkoutUrl}>{s.id}</a> : s.id) },
          { title: t('common.customer'), cell: (s) => s.customer?.email ?? s.customer?.customerId ?? '—' },
          { title: t('selling.product'), cell: (s) => s.product?.name ?? '—' },
          { title: t('common.status'), cell: (s) => <StatusBadge status={s.status} /> },
          { title: t('orders.created'), cell: (s) => when(s.createdOn) },
        ]}
      />
      {list.data ? <Pager label={t('selling.sessionPages')} page={page} count={list.data.count} pageSize={10} onPage={setPage} /> : null}
    </Section>
  );
}

function NewDiscount({ onDone }: { onDone(): void }) {
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [percent, setPercent] = useState('');
  const [duration, setDuration] = useState('ONCE');
  const create = useAction(() => api<Discount>('POST', '/discounts/', { body: { name, code: code || undefined, discountType: 'PERCENTAGE', percentOff: Number(percent), duration } }));
  return (
    <form
      className="row-form"
      aria-label={t('selling.newDiscount')}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void create.perform().then((r) => {
          if (!r) return;
          setName('');
          setCode('');
          setPercent('');
          onDone();
        });
      }}
    >
      <Field label={t('selling.discountName')} required value={name} onChange={(e) => setName(e.target.value)} />
      <Field label={t('selling.code')} value={code} onChange={(e) => setCode(e.target.value.toUpperCase())} hint={t('selling.codeHint')} />
      <Field label={t('selling.percentOff')} required inputMode="decimal" value={percent} onChange={(e) => setPercent(e.target.value)} />
      <Select
        label={t('selling.for')}
        options={[
          ['ONCE', t('selling.firstPayment')],
          ['FOREVER', t('selling.everyPayment')],
        ]} value={duration} onChange={(e) => setDuration(e.target.value)} />
      <button type="submit" disabled={create.busy}>
        {t('selling.createDiscount')}
      </button>
      <ErrorNote error={create.error} />
    </form>
  );
}

function ArchiveDiscount({ discount, onDone }: { discount: Discount; onDone(): void }) {
  if (discount.status !== 'active') return null;
  return <ActionButton label={t('selling.archive')} hidden={discount.name} run={() => api('POST', `/discounts/${discount.id}/archive/`, { body: {} })} onDone={onDone} />;
}

function Discounts({ canWrite }: { canWrite: boolean }) {
  const list = useResource(() => api<Page<Discount>>('GET', '/discounts/', { query: { page_size: 50 } }), []);
  return (
    <Section title={t('selling.discounts')}>
      <ErrorNote error={list.error} />
      <Table
        caption={t('selling.discounts')}
        rows={list.data?.results}
        rowKey={(d) => d.id}
        empty={t('selling.noDiscounts')}
        columns={[
          { title: t('common.name'), cell: (d) => d.name },
          { title: t('selling.code'), cell: (d) => (d.code ? <code>{d.code}</code> : '—') },
          { title: t('selling.off'), cell: (d) => (d.discountType === 'PERCENTAGE' ? t('selling.percent', { percent: d.percentOff ?? 0 }) : (d.amountsOff ?? []).map((a) => majorMoney(a.amount, a.currency)).join(', ')) },
          { title: t('customer.used'), numeric: true, cell: (d) => (d.maxRedemptions ? t('selling.usedOf', { used: d.timesRedeemed, max: d.maxRedemptions }) : String(d.timesRedeemed)) },
          { title: t('common.status'), cell: (d) => <StatusBadge status={d.status} /> },
          { title: t('common.actions'), cell: (d) => (canWrite ? <ArchiveDiscount discount={d} onDone={list.reload} /> : null) },
        ]}
      />
      {canWrite ? <NewDiscount onDone={list.reload} /> : null}
    </Section>
  );
}

export function Selling() {
  const canWrite = useCan('selling');
  const catalog = useResource(async () => {
    const [products, plans] = await Promise.all([api<Page<Product>>('GET', '/catalog/products/', { query: { page_size: 100 } }), api<Page<Plan>>('GET', '/catalog/plans/', { query: { page_size: 100 } })]);
    return { products: products.results, plans: plans.results };
  }, []);
  return (
    <>
      <PageTitle>{t('selling.title')}</PageTitle>
      <Section title={t('selling.generator')}>
        <ErrorNote error={catalog.error} />
        <Loading loading={catalog.loading && !catalog.data} />
        {catalog.data ? <BuyLinkGenerator products={catalog.data.products} plans={catalog.data.plans} /> : null}
        <Notice>{t('selling.anyone')}</Notice>
      </Section>
      <Sessions />
      <Discounts canWrite={canWrite} />
      {catalog.data ? <Promotions products={catalog.data.products} plans={catalog.data.plans} canWrite={canWrite} /> : null}
    </>
  );
}
