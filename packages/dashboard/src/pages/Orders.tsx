import { useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, type Page } from '../api';
import { useAction, useResource } from '../data';
import { day, money, when, words } from '../format';
import { useCan } from '../session';
import { ErrorNote, Field, Loading, Notice, PageTitle, Pager, SearchForm, Section, Select, StatusBadge, Table } from '../ui/kit';
import { Payments } from './Payments';
import type { CreditNote, Invoice, Order, Refund } from './types';

const PAGE_SIZE = 20;
const TABS: Array<[string, string]> = [
  ['orders', 'Orders'],
  ['invoices', 'Invoices'],
  ['credit-notes', 'Credit notes'],
  ['refunds', 'Refunds'],
  ['payments', 'Payments'],
];

function useListParams() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') ?? 'orders';
  const page = Number(params.get('page') ?? '1') || 1;
  const search = params.get('search') ?? '';
  const sort = params.get('sort') ?? '';
  const status = params.get('status') ?? '';
  return { tab, page, search, sort, status, go: (next: Record<string, string>) => setParams(Object.fromEntries(Object.entries({ tab, search, sort, status, ...next }).filter(([, v]) => v))) };
}

const ORDER_SORTS: Array<[string, string]> = [['', 'Newest paid first'], ['createdOn:desc', 'Newest created first'], ['total:desc', 'Largest first'], ['total:asc', 'Smallest first']];

function OrderList({ page, search, sort, onPage }: { page: number; search: string; sort: string; onPage(p: number): void }) {
  const [field, order] = sort.split(':');
  const list = useResource(() => api<Page<Order>>('GET', '/orders/', { query: { page, search, page_size: PAGE_SIZE, sort: field, order, count: 'capped' } }), [page, search, sort]);
  return (
    <>
      <ErrorNote error={list.error} />
      <Loading loading={list.loading && !list.data} />
      <Table
        caption="Orders"
        rows={list.data?.results}
        rowKey={(o) => o.id}
        empty="No orders."
        columns={[
          { title: 'Order', cell: (o) => <Link to={`/orders/${encodeURIComponent(o.id)}`}>{o.id}</Link> },
          { title: 'Customer', cell: (o) => o.customer.email ?? o.customer.customerId },
          { title: 'Plan', cell: (o) => o.plan?.name ?? '—' },
          { title: 'Total', numeric: true, cell: (o) => money(o.amountTotalUnits, o.saleCurrency) },
          { title: 'Status', cell: (o) => <StatusBadge status={o.status} /> },
          { title: 'Paid', nowrap: true, cell: (o) => when(o.paidAt) },
        ]}
      />
      {list.data ? <Pager label="Order pages" page={page} count={list.data.count} capped={list.data.countCapped} pageSize={PAGE_SIZE} onPage={onPage} /> : null}
    </>
  );
}

function PayInvoice({ invoice, onDone }: { invoice: Invoice; onDone(): void }) {
  const pay = useAction(() => api('POST', `/invoices/${encodeURIComponent(invoice.id)}/pay/`, { body: {} }));
  return (
    <>
      <button type="button" className="secondary" disabled={pay.busy} onClick={() => void pay.perform().then((r) => r !== undefined && onDone())}>
        Pay now<span className="visually-hidden"> {invoice.number}</span>
      </button>
      <ErrorNote error={pay.error} />
    </>
  );
}

function InvoiceList({ page, onPage }: { page: number; onPage(p: number): void }) {
  const list = useResource(() => api<Page<Invoice>>('GET', '/invoices/', { query: { page, page_size: PAGE_SIZE, count: 'capped' } }), [page]);
  const canPay = useCan('money');
  return (
    <>
      <ErrorNote error={list.error} />
      <Table
        caption="Invoices"
        rows={list.data?.results}
        rowKey={(i) => i.id}
        empty="No invoices."
        columns={[
          { title: 'Number', cell: (i) => (i.pdfUrl ? <a href={i.pdfUrl}>{i.number}</a> : i.number) },
          { title: 'Customer', cell: (i) => <Link to={`/customers/${encodeURIComponent(i.customer.customerId)}`}>{i.customer.email ?? i.customer.customerId}</Link> },
          { title: 'Total', numeric: true, cell: (i) => money(i.amountTotalUnits, i.currency) },
          { title: 'Status', cell: (i) => <StatusBadge status={i.status} /> },
          { title: 'Issued', cell: (i) => day(i.issuedOn) },
          { title: 'Actions', cell: (i) => (canPay && i.status !== 'PAID' ? <PayInvoice invoice={i} onDone={list.reload} /> : null) },
        ]}
      />
      {list.data ? <Pager label="Invoice pages" page={page} count={list.data.count} capped={list.data.countCapped} pageSize={PAGE_SIZE} onPage={onPage} /> : null}
    </>
  );
}

function CreditNoteList({ page, onPage }: { page: number; onPage(p: number): void }) {
  const list = useResource(() => api<Page<CreditNote>>('GET', '/credit-notes/', { query: { page, page_size: PAGE_SIZE, count: 'capped' } }), [page]);
  return (
    <>
      <ErrorNote error={list.error} />
      <Table
        caption="Credit notes"
        rows={list.data?.results}
        rowKey={(c) => c.id}
        empty="No credit notes."
        columns={[
          { title: 'Number', cell: (c) => (c.pdfUrl ? <a href={c.pdfUrl}>{c.number}</a> : c.number) },
          { title: 'Invoice', cell: (c) => c.invoiceNumber },
          { title: 'Reason', cell: (c) => words(c.reason) },
          { title: 'Total', numeric: true, cell: (c) => money(c.amountTotalUnits, c.currency) },
          { title: 'Issued', cell: (c) => day(c.issuedOn) },
        ]}
      />
      {list.data ? <Pager label="Credit note pages" page={page} count={list.data.count} capped={list.data.countCapped} pageSize={PAGE_SIZE} onPage={onPage} /> : null}
    </>
  );
}

function RefundList({ page, onPage }: { page: number; onPage(p: number): void }) {
  const list = useResource(() => api<Page<Refund>>('GET', '/refunds/', { query: { page, page_size: PAGE_SIZE, count: 'capped' } }), [page]);
  return (
    <>
      <ErrorNote error={list.error} />
      <Table
        caption="Refunds"
        rows={list.data?.results}
        rowKey={(r) => r.id}
        empty="No refunds."
        columns={[
          { title: 'Order', cell: (r) => <Link to={`/orders/${encodeURIComponent(r.order.id)}`}>{r.order.id}</Link> },
          { title: 'Customer', cell: (r) => r.order.customer.email ?? r.order.customer.customerId },
          { title: 'Amount', numeric: true, cell: (r) => money(r.amountUnits, r.currency) },
          { title: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
          { title: 'Reason', cell: (r) => words(r.reason) },
          { title: 'Created', cell: (r) => when(r.createdOn) },
        ]}
      />
      {list.data ? <Pager label="Refund pages" page={page} count={list.data.count} capped={list.data.countCapped} pageSize={PAGE_SIZE} onPage={onPage} /> : null}
    </>
  );
}

export function Orders() {
  const { tab, page, search, sort, status, go } = useListParams();
  const onPage = (p: number) => go({ page: String(p) });
  return (
    <>
      <PageTitle>Orders and invoices</PageTitle>
      <nav className="tabs" aria-label="Kinds of record">
        {TABS.map(([value, label]) => (
          <Link key={value} to={`?tab=${value}`} aria-current={tab === value ? 'page' : undefined}>
            {label}
          </Link>
        ))}
      </nav>
      {tab === 'orders' ? (
        <>
          <SearchForm label="Search orders (email, customer id or order id)" initial={search} onSearch={(text) => go({ search: text, page: '' })}>
            <Select label="Sort by" options={ORDER_SORTS} value={sort} onChange={(e) => go({ sort: e.target.value, page: '' })} />
          </SearchForm>
          <OrderList page={page} search={search} sort={sort} onPage={onPage} />
        </>
      ) : null}
      {tab === 'invoices' ? <InvoiceList page={page} onPage={onPage} /> : null}
      {tab === 'credit-notes' ? <CreditNoteList page={page} onPage={onPage} /> : null}
      {tab === 'refunds' ? <RefundList page={page} onPage={onPage} /> : null}
      {tab === 'payments' ? <Payments query={{ page, search, status }} go={go} /> : null}
    </>
  );
}

interface OrderEvent {
  id: number;
  title: string;
  code: string;
  status: string;
  timestamp: string;
}

/** A refund of part or all of what is left; the amount is in the currency's units, as a person writes it. */
function RefundForm({ order, onDone }: { order: Order; onDone(): void }) {
  const rest = order.amountTotalUnits - order.refundedTotalUnits;
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('REQUESTED_BY_CUSTOMER');
  const refund = useAction(() => api<Refund>('POST', '/refunds/', { body: { orderId: order.id, amount, reason } }));
  if (rest <= 0) return <Notice>Everything paid for this order has been refunded.</Notice>;
  return (
    <form
      className="row-form"
      aria-label="Refund"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void refund.perform().then((r) => {
          if (r === undefined) return;
          setAmount('');
          onDone();
        });
      }}
    >
      <Field label={`Amount to refund (${order.saleCurrency})`} required inputMode="decimal" hint={`Up to ${money(rest, order.saleCurrency)} can still be refunded.`} value={amount} onChange={(e) => setAmount(e.target.value)} />
      <Select label="Reason" options={[['REQUESTED_BY_CUSTOMER', 'Requested by the customer'], ['DUPLICATE', 'Duplicate'], ['FRAUDULENT', 'Fraudulent'], ['OTHER', 'Other']]} value={reason} onChange={(e) => setReason(e.target.value)} />
      <button type="submit" className="danger" disabled={refund.busy}>
        Refund
      </button>
      <ErrorNote error={refund.error} />
      {refund.result ? <Notice>Refunded {money(refund.result.amountUnits, refund.result.currency)}.</Notice> : null}
    </form>
  );
}

export function OrderDetail() {
  const { id = '' } = useParams();
  const view = useResource(async () => {
    const path = `/orders/${encodeURIComponent(id)}/`;
    const [order, events] = await Promise.all([api<Order>('GET', path), api<Page<OrderEvent>>('GET', `${path}events/`)]);
    return { order, events: events.results };
  }, [id]);
  const canRefund = useCan('money');
  const order = view.data?.order;
  return (
    <>
      <PageTitle>{`Order ${id}`}</PageTitle>
      <p>
        <Link to="/orders">All orders</Link>
      </p>
      <ErrorNote error={view.error} />
      <Loading loading={view.loading && !view.data} />
      {order ? (
        <>
          <dl className="facts">
            <dt>Customer</dt>
            <dd>
              <Link to={`/customers/${encodeURIComponent(order.customer.customerId)}`}>{order.customer.email ?? order.customer.customerId}</Link>
            </dd>
            <dt>Plan</dt>
            <dd>{order.plan?.name ?? '—'}</dd>
            <dt>Total</dt>
            <dd>{money(order.amountTotalUnits, order.saleCurrency)}</dd>
            <dt>Refunded</dt>
            <dd>{money(order.refundedTotalUnits, order.saleCurrency)}</dd>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={order.status} />
            </dd>
            <dt>Paid</dt>
            <dd>{when(order.paidAt)}</dd>
          </dl>
          {canRefund ? (
            <Section title="Refund">
              <RefundForm order={order} onDone={view.reload} />
            </Section>
          ) : null}
          <Section title="Timeline">
            <ul className="plain">
              {view.data!.events.map((e) => (
                <li key={e.id}>
                  <strong>{e.title}</strong> <span className="muted">{when(e.timestamp)}</span>
                </li>
              ))}
            </ul>
          </Section>
        </>
      ) : null}
    </>
  );
}
