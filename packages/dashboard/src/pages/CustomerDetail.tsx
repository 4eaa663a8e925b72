import { Link, useParams } from 'react-router';
import { api, type Page } from '../api';
import { useAction, useResource } from '../data';
import { day, majorMoney, money, when, words } from '../format';
import { useCan } from '../session';
import { ErrorNote, Loading, Notice, PageTitle, Section, StatusBadge, Table } from '../ui/kit';
import { Licenses, Timeline } from './CustomerHistory';
import type { CreditNote, Customer, Entitlement, Invoice, Order, PaymentMethod, Subscription } from './types';

interface CustomerView {
  customer: Customer;
  subscriptions: Page<Subscription>;
  orders: Page<Order>;
  invoices: Page<Invoice>;
  creditNotes: Page<CreditNote>;
  paymentMethods: Page<PaymentMethod>;
  entitlements: { entitlements: Entitlement[] };
}

async function loadCustomer(customerId: string): Promise<CustomerView> {
  const path = `/customers/${encodeURIComponent(customerId)}/`;
  const query = { customer_id: customerId, page_size: 20 };
  const [customer, subscriptions, orders, invoices, creditNotes, paymentMethods, entitlements] = await Promise.all([
    api<Customer>('GET', path),
    api<Page<Subscription>>('GET', '/subscriptions/', { query }),
    api<Page<Order>>('GET', '/orders/', { query }),
    api<Page<Invoice>>('GET', '/invoices/', { query }),
    api<Page<CreditNote>>('GET', '/credit-notes/', { query }),
    api<Page<PaymentMethod>>('GET', '/payment-methods/', { query }),
    api<{ entitlements: Entitlement[] }>('GET', '/entitlements/', { query: { customer_id: customerId } }),
  ]);
  return { customer, subscriptions, orders, invoices, creditNotes, paymentMethods, entitlements };
}

function PortalLink({ customerId }: { customerId: string }) {
  const portal = useAction(() => api<{ customerPortalUrl: string }>('POST', '/portal/session/', { body: { customerId } }));
  return (
    <div>
      <button type="button" className="secondary" disabled={portal.busy} onClick={() => void portal.perform()}>
        Make a portal link
      </button>
      <ErrorNote error={portal.error} />
      {portal.result ? (
        <Notice>
          Portal link for this customer (valid for a short time): <a href={portal.result.customerPortalUrl}>{portal.result.customerPortalUrl}</a>
        </Notice>
      ) : null}
    </div>
  );
}

function Archive({ customer, onDone }: { customer: Customer; onDone(): void }) {
  const archive = useAction(() => api('DELETE', `/customers/${encodeURIComponent(customer.customerId)}/`));
  if (customer.isArchived) return <Notice>This customer is archived.</Notice>;
  return (
    <div>
      <button type="button" className="danger" disabled={archive.busy} onClick={() => void archive.perform().then((r) => r !== undefined && onDone())}>
        Archive customer
      </button>
      <ErrorNote error={archive.error} />
    </div>
  );
}

function Documents({ view }: { view: CustomerView }) {
  return (
    <>
      <Section title="Orders">
        <Table
          caption="Orders of this customer"
          rows={view.orders.results}
          rowKey={(o) => o.id}
          empty="No orders."
          columns={[
            { title: 'Order', cell: (o) => <Link to={`/orders/${encodeURIComponent(o.id)}`}>{o.id}</Link> },
            { title: 'Plan', cell: (o) => o.plan?.name ?? '—' },
            { title: 'Total', numeric: true, cell: (o) => money(o.amountTotalUnits, o.saleCurrency) },
            { title: 'Refunded', numeric: true, cell: (o) => money(o.refundedTotalUnits, o.saleCurrency) },
            { title: 'Status', cell: (o) => <StatusBadge status={o.status} /> },
            { title: 'Paid', nowrap: true, cell: (o) => when(o.paidAt) },
          ]}
        />
      </Section>
      <Section title="Invoices">
        <Table
          caption="Invoices of this customer"
          rows={view.invoices.results}
          rowKey={(i) => i.id}
          empty="No invoices."
          columns={[
            { title: 'Number', cell: (i) => (i.pdfUrl ? <a href={i.pdfUrl}>{i.number}</a> : i.number) },
            { title: 'Total', numeric: true, cell: (i) => money(i.amountTotalUnits, i.currency) },
            { title: 'Status', cell: (i) => <StatusBadge status={i.status} /> },
            { title: 'Issued', cell: (i) => day(i.issuedOn) },
          ]}
        />
      </Section>
      <Section title="Credit notes">
        <Table
          caption="Credit notes of this customer"
          rows={view.creditNotes.results}
          rowKey={(c) => c.id}
          empty="No credit notes."
          columns={[
            { title: 'Number', cell: (c) => (c.pdfUrl ? <a href={c.pdfUrl}>{c.number}</a> : c.number) },
            { title: 'Reason', cell: (c) => words(c.reason) },
            { title: 'Total', numeric: true, cell: (c) => money(c.amountTotalUnits, c.currency) },
            { title: 'Issued', cell: (c) => day(c.issuedOn) },
          ]}
        />
      </Section>
    </>
  );
}

function Facts({ customer }: { customer: Customer }) {
  return (
    <dl className="facts">
      <dt>Customer id</dt>
      <dd>
        <code>{customer.customerId}</code>
      </dd>
      <dt>Name</dt>
      <dd>{customer.name ?? '—'}</dd>
      <dt>Since</dt>
      <dd>{day(customer.createdOn)}</dd>
      <dt>Test clock</dt>
      <dd>{customer.testClockId ?? 'none'}</dd>
    </dl>
  );
}

export function CustomerDetail() {
  const { customerId = '' } = useParams();
  const view = useResource(() => loadCustomer(customerId), [customerId]);
  const canWrite = useCan('customers');
  const data = view.data;
  return (
    <>
      <PageTitle actions={data && canWrite ? <PortalLink customerId={customerId} /> : null}>{data?.customer.email ?? customerId}</PageTitle>
      <p>
        <Link to="/customers">All customers</Link>
      </p>
      <ErrorNote error={view.error} />
      <Loading loading={view.loading && !data} />
      {data ? (
        <>
          <Facts customer={data.customer} />
          <Section title="Subscriptions">
            <Table
              caption="Subscriptions of this customer"
              rows={data.subscriptions.results}
              rowKey={(s) => s.id}
              empty="No subscriptions."
              columns={[
                { title: 'Plan', cell: (s) => `${s.plan.name} (version ${s.planVersion})` },
                { title: 'Amount', numeric: true, cell: (s) => majorMoney(s.amount, s.currency) },
                { title: 'Period', cell: (s) => words(s.chargePeriod) },
                { title: 'Status', cell: (s) => <StatusBadge status={s.status} /> },
                { title: 'Renews or ends', cell: (s) => day(s.billingPeriodEndTime) },
                { title: 'Actions', cell: (s) => <Link to={`/subscriptions/${encodeURIComponent(s.id)}`}>Manage<span className="visually-hidden"> {s.plan.name}</span></Link> },
              ]}
            />
          </Section>
          <Section title="Entitlements and usage">
            <Table
              caption="Entitlements of this customer"
              rows={data.entitlements.entitlements}
              rowKey={(e) => e.featureId}
              empty="No entitlements."
              columns={[
                { title: 'Feature', cell: (e) => <code>{e.featureId}</code> },
                { title: 'Access', cell: (e) => (e.hasAccess ? 'Yes' : 'No') },
                { title: 'Used', numeric: true, cell: (e) => e.currentUsage ?? '—' },
                { title: 'Limit', numeric: true, cell: (e) => e.usageLimit ?? (e.featureType === 'METER' ? 'Unlimited' : '—') },
                { title: 'Resets', cell: (e) => day(e.resetAt) },
              ]}
            />
          </Section>
          <Licenses customerId={customerId} canWrite={canWrite} />
          <Timeline customerId={customerId} />
          <Documents view={data} />
          <Section title="Payment methods">
            <Table
              caption="Payment methods of this customer"
              rows={data.paymentMethods.results}
              rowKey={(p) => String(p.id)}
              empty="No saved payment methods."
              columns={[
                { title: 'Card', cell: (p) => `${p.methodData.brand ?? p.methodType} •••• ${p.methodData.last4 ?? ''}` },
                { title: 'Expires', cell: (p) => (p.methodData.expMonth ? `${p.methodData.expMonth}/${p.methodData.expYear}` : '—') },
                { title: 'Default', cell: (p) => (p.isDefault ? 'Yes' : '') },
              ]}
            />
          </Section>
          {canWrite ? <Archive customer={data.customer} onDone={view.reload} /> : null}
        </>
      ) : null}
    </>
  );
}
