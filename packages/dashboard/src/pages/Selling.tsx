import { useState, type FormEvent } from 'react';
import { api, environmentPrefix, type Page } from '../api';
import { useAction, useResource } from '../data';
import { majorMoney, when } from '../format';
import { useCan, useSession } from '../session';
import { ActionButton, Checkbox, ErrorNote, Field, Loading, Notice, PageTitle, Pager, Section, Select, StatusBadge, Table } from '../ui/kit';
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
  if (products.length === 0) return <p>Create a product and publish a plan in the catalog first.</p>;
  const query = new URLSearchParams();
  const chosenPlan = plan || ofProduct[0]?.identifier;
  if (chosenPlan) query.set('plan_identifier', chosenPlan);
  query.set('charge_period', period);
  if (discounts) query.set('discounts_enabled', 'true');
  if (successUrl) query.set('success_url', successUrl);
  const link = `${window.location.origin}${environmentPrefix(environment)}/buy/${product}/?${query.toString()}`;
  return (
    <>
      <form className="row-form" aria-label="Buy link" onSubmit={(event: FormEvent) => event.preventDefault()}>
        <Select label="Product" options={products.map((p) => [p.id, p.name])} value={product} onChange={(e) => setProduct(e.target.value)} />
        <Select label="Plan" options={ofProduct.map((p) => [p.identifier, p.name])} value={chosenPlan ?? ''} onChange={(e) => setPlan(e.target.value)} />
        <Select label="Charged" options={[['MONTHLY', 'Monthly'], ['YEARLY', 'Yearly'], ['ONE_TIME', 'Once']]} value={period} onChange={(e) => setPeriod(e.target.value)} />
        <Field label="After paying, go to (optional)" type="url" value={successUrl} onChange={(e) => setSuccessUrl(e.target.value)} hint="Must be on the product's site; empty: Billow's own thank-you page." />
        <Checkbox label="Accept discount codes" checked={discounts} onChange={setDiscounts} />
      </form>
      <p className="buy-link">
        <span id="buy-link-label">Buy link: </span>
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
    <Section title="Checkout sessions">
      <ErrorNote error={list.error} />
      <Table
        caption="Checkout sessions"
        rows={list.data?.results}
        rowKey={(s) => s.id}
        empty="No checkout sessions yet."
        columns={[
          { title: 'Session', cell: (s) => (s.status === 'open' ? <a href={s.checkoutUrl}>{s.id}</a> : s.id) },
          { title: 'Customer', cell: (s) => s.customer?.email ?? s.customer?.customerId ?? '—' },
          { title: 'Product', cell: (s) => s.product?.name ?? '—' },
          { title: 'Status', cell: (s) => <StatusBadge status={s.status} /> },
          { title: 'Created', cell: (s) => when(s.createdOn) },
        ]}
      />
      {list.data ? <Pager label="Checkout session pages" page={page} count={list.data.count} pageSize={10} onPage={setPage} /> : null}
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
      aria-label="New discount"
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
      <Field label="Discount name" required value={name} onChange={(e) => setName(e.target.value)} />
      <Field label="Code" value={code} onChange={(e) => setCode(e.target.value.toUpperCase())} hint="What buyers type at checkout" />
      <Field label="Percent off" required inputMode="decimal" value={percent} onChange={(e) => setPercent(e.target.value)} />
      <Select label="For" options={[['ONCE', 'The first payment'], ['FOREVER', 'Every payment']]} value={duration} onChange={(e) => setDuration(e.target.value)} />
      <button type="submit" disabled={create.busy}>
        Create discount
      </button>
      <ErrorNote error={create.error} />
    </form>
  );
}

function ArchiveDiscount({ discount, onDone }: { discount: Discount; onDone(): void }) {
  if (discount.status !== 'active') return null;
  return <ActionButton label="Archive" hidden={discount.name} run={() => api('POST', `/discounts/${discount.id}/archive/`, { body: {} })} onDone={onDone} />;
}

function Discounts({ canWrite }: { canWrite: boolean }) {
  const list = useResource(() => api<Page<Discount>>('GET', '/discounts/', { query: { page_size: 50 } }), []);
  return (
    <Section title="Discounts">
      <ErrorNote error={list.error} />
      <Table
        caption="Discounts"
        rows={list.data?.results}
        rowKey={(d) => d.id}
        empty="No discounts yet."
        columns={[
          { title: 'Name', cell: (d) => d.name },
          { title: 'Code', cell: (d) => (d.code ? <code>{d.code}</code> : '—') },
          { title: 'Off', cell: (d) => (d.discountType === 'PERCENTAGE' ? `${d.percentOff} %` : (d.amountsOff ?? []).map((a) => majorMoney(a.amount, a.currency)).join(', ')) },
          { title: 'Used', numeric: true, cell: (d) => `${d.timesRedeemed}${d.maxRedemptions ? ` of ${d.maxRedemptions}` : ''}` },
          { title: 'Status', cell: (d) => <StatusBadge status={d.status} /> },
          { title: 'Actions', cell: (d) => (canWrite ? <ArchiveDiscount discount={d} onDone={list.reload} /> : null) },
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
      <PageTitle>Selling</PageTitle>
      <Section title="Buy link generator">
        <ErrorNote error={catalog.error} />
        <Loading loading={catalog.loading && !catalog.data} />
        {catalog.data ? <BuyLinkGenerator products={catalog.data.products} plans={catalog.data.plans} /> : null}
        <Notice>Anyone with a buy link can buy: it opens a new checkout each time.</Notice>
      </Section>
      <Sessions />
      <Discounts canWrite={canWrite} />
      {catalog.data ? <Promotions products={catalog.data.products} canWrite={canWrite} /> : null}
    </>
  );
}
