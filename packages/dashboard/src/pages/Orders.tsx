import { useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, type Page } from '../api';
import { useAction, useResource } from '../data';
import { day, money, when, words } from '../format';
import { useCan } from '../session';
import { ErrorNote, Field, Loading, Notice, PageTitle, Pager, SearchForm, Section, Select, StatusBadge, Table } from '../ui/kit';
import { hasMessage, t, type MessageKey } from '../i18n/language';
import { Payments } from './Payments';
import type { CreditNote, Invoice, Order, Refund } from './types';

const PAGE_SIZE = 20;
const TABS: Array<[string, MessageKey]> = [
  ['orders', 'orders.tabOrders'],
  ['invoices', 'orders.tabInvoices'],
  ['credit-notes', 'orders.tabCreditNotes'],
  ['refunds', 'orders.tabRefunds'],
  ['payments', 'orders.tabPayments'],
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

const orderSorts = (): Array<[string, string]> => [
  ['', t('orders.newestPaid')],
  ['createdOn:desc', t('orders.newestCreated')],
  ['total:desc', t('orders.largest')],
  ['total:asc', t('orders.smallest')],
];

function OrderList({ page, search, sort, onPage }: { page: number; search: string; sort: string; onPage(p: number): void }) {
  const [field, order] = sort.split(':');
  const list = useResource(() => api<Page<Order>>('GET', '/orders/', { query: { page, search, page_size: PAGE_SIZE, sort: field, order, count: 'capped' } }), [page, search, sort]);
  return (
    <>
      <ErrorNote error={list.error} />
      <Loading loading={list.loading && !list.data} />
      <Table
        caption={t('orders.tabOrders')}
        rows={list.data?.results}
        rowKey={(o) => o.id}
        empty={t('customer.noOrders')}
        columns={[
          { title: t('home.order'), cell: (o) => <Link to={`/orders/${encodeURIComponent(o.id)}`}>{o.id}</Link> },
          { title: t('common.customer'), cell: (o) => o.customer.email ?? o.customer.customerId },
          { title: t('common.plan'), cell: (o) => o.plan?.name ?? '—' },
          { title: t('common.total'), numeric: true, cell: (o) => money(o.amountTotalUnits, o.saleCurrency) },
          { title: t('common.status'), cell: (o) => <StatusBadge status={o.status} /> },
          { title: t('common.paid'), nowrap: true, cell: (o) => when(o.paidAt) },
        ]}
      />
      {list.data ? <Pager label={t('orders.pages')} page={page} count={list.data.count} capped={list.data.countCapped} pageSize={PAGE_SIZE} onPage={onPage} /> : null}
    </>
  );
}

function PayInvoice({ invoice, onDone }: { invoice: Invoice; onDone(): void }) {
  const pay = useAction(() => api('POST', `/invoices/${encodeURIComponent(invoice.id)}/pay/`, { body: {} }));
  return (
    <>
      <button type="button" className="secondary" disabled={pay.busy} onClick={() => void pay.perform().then((r) => r !== undefined && onDone())}>
        {t('orders.payNow')}<span className="visually-hidden"> {invoice.number}</span>
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
        caption={t('orders.tabInvoices')}
        rows={list.data?.results}
        rowKey={(i) => i.id}
        empty={t('customer.noInvoices')}
        columns={[
          { title: t('common.number'), cell: (i) => (i.pdfUrl ? <a href={i.pdfUrl}>{i.number}</a> : i.number) },
          { title: t('common.customer'), cell: (i) => <Link to={`/customers/${encodeURIComponent(i.customer.customerId)}`}>{i.customer.email ?? i.customer.customerId}</Link> },
          { title: t('common.total'), numeric: true, cell: (i) => money(i.amountTotalUnits, i.currency) },
          { title: t('common.status'), cell: (i) => <StatusBadge status={i.status} /> },
          { title: t('common.issued'), cell: (i) => day(i.issuedOn) },
          { title: t('common.actions'), cell: (i) => (canPay && i.status !== 'PAID' ? <PayInvoice invoice={i} onDone={list.reload} /> : null) },
        ]}
      />
      {list.data ? <Pager label={t('orders.invoicePages')} page={page} count={list.data.count} capped={list.data.countCapped} pageSize={PAGE_SIZE} onPage={onPage} /> : null}
    </>
  );
}

function CreditNoteList({ page, onPage }: { page: number; onPage(p: number): void }) {
  const list = useResource(() => api<Page<CreditNote>>('GET', '/credit-notes/', { query: { page, page_size: PAGE_SIZE, count: 'capped' } }), [page]);
  return (
    <>
      <ErrorNote error={list.error} />
      <Table
        caption={t('orders.tabCreditNotes')}
        rows={list.data?.results}
        rowKey={(c) => c.id}
        empty={t('customer.noCreditNotes')}
        columns={[
          { title: t('common.number'), cell: (c) => (c.pdfUrl ? <a href={c.pdfUrl}>{c.number}</a> : c.number) },
          { title: t('orders.invoice'), cell: (c) => c.invoiceNumber },
          { title: t('common.reason'), cell: (c) => words(c.reason) },
          { title: t('common.total'), numeric: true, cell: (c) => money(c.amountTotalUnits, c.currency) },
          { title: t('common.issued'), cell: (c) => day(c.issuedOn) },
        ]}
      />
      {list.data ? <Pager label={t('orders.creditNotePages')} page={page} count={list.data.count} capped={list.data.countCapped} pageSize={PAGE_SIZE} onPage={onPage} /> : null}
    </>
  );
}

function RefundList({ page, onPage }: { page: number; onPage(p: number): void }) {
  const list = useResource(() => api<Page<Refund>>('GET', '/refunds/', { query: { page, page_size: PAGE_SIZE, count: 'capped' } }), [page]);
  return (
    <>
      <ErrorNote error={list.error} />
      <Table
        caption={t('orders.tabRefunds')}
        rows={list.data?.results}
        rowKey={(r) => r.id}
        empty={t('orders.noRefunds')}
        columns={[
          { title: t('home.order'), cell: (r) => <Link to={`/orders/${encodeURIComponent(r.order.id)}`}>{r.order.id}</Link> },
          { title: t('common.customer'), cell: (r) => r.order.customer.email ?? r.order.customer.customerId },
          { title: t('common.amount'), numeric: true, cell: (r) => money(r.amountUnits, r.currency) },
          { title: t('common.status'), cell: (r) => <StatusBadge status={r.status} /> },
          { title: t('common.reason'), cell: (r) => words(r.reason) },
          { title: t('orders.created'), cell: (r) => when(r.createdOn) },
        ]}
      />
      {list.data ? <Pager label={t('orders.refundPages')} page={page} count={list.data.count} capped={list.data.countCapped} pageSize={PAGE_SIZE} onPage={onPage} /> : null}
    </>
  );
}

export function Orders() {
  const { tab, page, search, sort, status, go } = useListParams();
  const onPage = (p: number) => go({ page: String(p) });
  return (
    <>
      <PageTitle>{t('orders.title')}</PageTitle>
      <nav className="tabs" aria-label={t('orders.kinds')}>
        {TABS.map(([value, label]) => (
          <Link key={value} to={`?tab=${value}`} aria-current={tab === value ? 'page' : undefined}>
            {t(label)}
          </Link>
        ))}
      </nav>
      {tab === 'orders' ? (
        <>
          <SearchForm label={t('orders.search')} initial={search} onSearch={(text) => go({ search: text, page: '' })}>
            <Select label={t('customers.sortBy')} options={orderSorts()} value={sort} onChange={(e) => go({ sort: e.target.value, page: '' })} />
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
  if (rest <= 0) return <Notice>{t('orders.allRefunded')}</Notice>;
  return (
    <form
      className="row-form"
      aria-label={t('orders.refund')}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void refund.perform().then((r) => {
          if (r === undefined) return;
          setAmount('');
          onDone();
        });
      }}
    >
      <Field
        label={t('orders.refundAmount', { currency: order.saleCurrency })}
        required
        inputMode="decimal"
        hint={t('orders.refundRest', { amount: money(rest, order.saleCurrency) })} value={amount} onChange={(e) => setAmount(e.target.value)} />
      <Select
        label={t('common.reason')}
        options={['REQUESTED_BY_CUSTOMER', 'DUPLICATE', 'FRAUDULENT', 'OTHER'].map((value): [string, string] => [value, words(value)])} value={reason} onChange={(e) => setReason(e.target.value)} />
      <button type="submit" className="danger" disabled={refund.busy}>
        {t('orders.refund')}
      </button>
      <ErrorNote error={refund.error} />
      {refund.result ? <Notice>{t('orders.refunded', { amount: money(refund.result.amountUnits, refund.result.currency) })}</Notice> : null}
    </form>
  );
}

/** An order event in words: the catalogue's for its code, else the server's own title. */
function orderEventTitle(event: OrderEvent): string {
  const key = `orderEvent.${event.code}`;
  return hasMessage(key) ? t(key) : event.title;
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
      <PageTitle>{t('orders.orderTitle', { id })}</PageTitle>
      <p>
        <Link to="/orders">{t('orders.all')}</Link>
      </p>
      <ErrorNote error={view.error} />
      <Loading loading={view.loading && !view.data} />
      {order ? (
        <>
          <dl className="facts">
            <dt>{t('common.customer')}</dt>
            <dd>
              <Link to={`/customers/${encodeURIComponent(order.customer.customerId)}`}>{order.customer.email ?? order.customer.customerId}</Link>
            </dd>
            <dt>{t('common.plan')}</dt>
            <dd>{order.plan?.name ?? '—'}</dd>
            <dt>{t('common.total')}</dt>
            <dd>{money(order.amountTotalUnits, order.saleCurrency)}</dd>
            <dt>{t('customer.refunded')}</dt>
            <dd>{money(order.refundedTotalUnits, order.saleCurrency)}</dd>
            <dt>{t('common.status')}</dt>
            <dd>
              <StatusBadge status={order.status} />
            </dd>
            <dt>{t('common.paid')}</dt>
            <dd>{when(order.paidAt)}</dd>
          </dl>
          {canRefund ? (
            <Section title={t('orders.refund')}>
              <RefundForm order={order} onDone={view.reload} />
            </Section>
          ) : null}
          <Section title={t('orders.timeline')}>
            <ul className="plain">
              {view.data!.events.map((e) => (
                <li key={e.id}>
                  <strong>{orderEventTitle(e)}</strong> <span className="muted">{when(e.timestamp)}</span>
                </li>
              ))}
            </ul>
          </Section>
        </>
      ) : null}
    </>
  );
}
