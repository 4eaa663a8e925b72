import { Link, useParams } from 'react-router';
import { api, type Page } from '../api';
import { useAction, useResource } from '../data';
import { cardBrand, count, day, majorMoney, money, when, words } from '../format';
import { useCan } from '../session';
import { ErrorNote, Loading, Notice, PageTitle, Section, StatusBadge, Table } from '../ui/kit';
import { t } from '../i18n/language';
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
        {t('customer.portalLink')}
      </button>
      <ErrorNote error={portal.error} />
      {portal.result ? (
        <Notice>
          {t('customer.portalLinkNote')} <a href={portal.result.customerPortalUrl}>{portal.result.customerPortalUrl}</a>
        </Notice>
      ) : null}
    </div>
  );
}

function Archive({ customer, onDone }: { customer: Customer; onDone(): void }) {
  const archive = useAction(() => api('DELETE', `/customers/${encodeURIComponent(customer.customerId)}/`));
  if (customer.isArchived) return <Notice>{t('customer.archived')}</Notice>;
  return (
    <div>
      <button type="button" className="danger" disabled={archive.busy} onClick={() => void archive.perform().then((r) => r !== undefined && onDone())}>
        {t('customer.archive')}
      </button>
      <ErrorNote error={archive.error} />
    </div>
  );
}

function Documents({ view }: { view: CustomerView }) {
  return (
    <>
      <Section title={t('customer.orders')}>
        <Table
          caption={t('customer.ordersCaption')}
          rows={view.orders.results}
          rowKey={(o) => o.id}
          empty={t('customer.noOrders')}
          columns={[
            { title: t('home.order'), cell: (o) => <Link to={`/orders/${encodeURIComponent(o.id)}`}>{o.id}</Link> },
            { title: t('common.plan'), cell: (o) => o.plan?.name ?? '—' },
            { title: t('common.total'), numeric: true, cell: (o) => money(o.amountTotalUnits, o.saleCurrency) },
            { title: t('customer.refunded'), numeric: true, cell: (o) => money(o.refundedTotalUnits, o.saleCurrency) },
            { title: t('common.status'), cell: (o) => <StatusBadge status={o.status} /> },
            { title: t('common.paid'), nowrap: true, cell: (o) => when(o.paidAt) },
          ]}
        />
      </Section>
      <Section title={t('customer.invoices')}>
        <Table
          caption={t('customer.invoicesCaption')}
          rows={view.invoices.results}
          rowKey={(i) => i.id}
          empty={t('customer.noInvoices')}
          columns={[
            { title: t('common.number'), cell: (i) => (i.pdfUrl ? <a href={i.pdfUrl}>{i.number}</a> : i.number) },
            { title: t('common.total'), numeric: true, cell: (i) => money(i.amountTotalUnits, i.currency) },
            { title: t('common.status'), cell: (i) => <StatusBadge status={i.status} /> },
            { title: t('common.issued'), cell: (i) => day(i.issuedOn) },
          ]}
        />
      </Section>
      <Section title={t('customer.creditNotes')}>
        <Table
          caption={t('customer.creditNotesCaption')}
          rows={view.creditNotes.results}
          rowKey={(c) => c.id}
          empty={t('customer.noCreditNotes')}
          columns={[
            { title: t('common.number'), cell: (c) => (c.pdfUrl ? <a href={c.pdfUrl}>{c.number}</a> : c.number) },
            { title: t('common.reason'), cell: (c) => words(c.reason) },
            { title: t('common.total'), numeric: true, cell: (c) => money(c.amountTotalUnits, c.currency) },
            { title: t('common.issued'), cell: (c) => day(c.issuedOn) },
          ]}
        />
      </Section>
    </>
  );
}

function Facts({ customer }: { customer: Customer }) {
  return (
    <dl className="facts">
      <dt>{t('common.customerId')}</dt>
      <dd>
        <code>{customer.customerId}</code>
      </dd>
      <dt>{t('common.name')}</dt>
      <dd>{customer.name ?? '—'}</dd>
      <dt>{t('common.since')}</dt>
      <dd>{day(customer.createdOn)}</dd>
      <dt>{t('customer.testClock')}</dt>
      <dd>{customer.testClockId ?? t('customer.noTestClock')}</dd>
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
        <Link to="/customers">{t('customer.all')}</Link>
      </p>
      <ErrorNote error={view.error} />
      <Loading loading={view.loading && !data} />
      {data ? (
        <>
          <Facts customer={data.customer} />
          <Section title={t('customer.subscriptions')}>
            <Table
              caption={t('customer.subscriptionsCaption')}
              rows={data.subscriptions.results}
              rowKey={(s) => s.id}
              empty={t('customer.noSubscriptions')}
              columns={[
                { title: t('common.plan'), cell: (s) => t('common.planVersion', { plan: s.plan.name, version: s.planVersion }) },
                { title: t('common.amount'), numeric: true, cell: (s) => majorMoney(s.amount, s.currency) },
                { title: t('common.period'), cell: (s) => words(s.chargePeriod) },
                { title: t('common.status'), cell: (s) => <StatusBadge status={s.status} /> },
                { title: t('customer.renewsOrEnds'), cell: (s) => day(s.billingPeriodEndTime) },
                { title: t('common.actions'), cell: (s) => <Link to={`/subscriptions/${encodeURIComponent(s.id)}`}>{t('common.manage')}<span className="visually-hidden"> {s.plan.name}</span></Link> },
              ]}
            />
          </Section>
          <Section title={t('customer.entitlements')}>
            <Table
              caption={t('customer.entitlementsCaption')}
              rows={data.entitlements.entitlements}
              rowKey={(e) => e.featureId}
              empty={t('customer.noEntitlements')}
              columns={[
                { title: t('customer.feature'), cell: (e) => <code>{e.featureId}</code> },
                { title: t('customer.access'), cell: (e) => (e.hasAccess ? t('common.yes') : t('common.no')) },
                { title: t('customer.used'), numeric: true, cell: (e) => (e.currentUsage === null || e.currentUsage === undefined ? '—' : count(e.currentUsage)) },
                { title: t('customer.limit'), numeric: true, cell: (e) => (e.usageLimit === null || e.usageLimit === undefined ? (e.featureType === 'METER' ? t('common.unlimited') : '—') : count(e.usageLimit)) },
                { title: t('customer.resets'), cell: (e) => day(e.resetAt) },
              ]}
            />
          </Section>
          <Licenses customerId={customerId} canWrite={canWrite} />
          <Timeline customerId={customerId} />
          <Documents view={data} />
          <Section title={t('customer.paymentMethods')}>
            <Table
              caption={t('customer.paymentMethodsCaption')}
              rows={data.paymentMethods.results}
              rowKey={(p) => String(p.id)}
              empty={t('customer.noPaymentMethods')}
              columns={[
                { title: t('customer.card'), cell: (p) => `${p.methodData.brand ? cardBrand(p.methodData.brand) : words(p.methodType)} •••• ${p.methodData.last4 ?? ''}` },
                { title: t('common.expires'), cell: (p) => (p.methodData.expMonth ? `${p.methodData.expMonth}/${p.methodData.expYear}` : '—') },
                { title: t('customer.default'), cell: (p) => (p.isDefault ? t('common.yes') : '') },
              ]}
            />
          </Section>
          {canWrite ? <Archive customer={data.customer} onDone={view.reload} /> : null}
        </>
      ) : null}
    </>
  );
}
