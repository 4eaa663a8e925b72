import { Link } from 'react-router';
import { api, type Page } from '../api';
import { useResource } from '../data';
import type { ReactNode } from 'react';
import { money, when } from '../format';
import { ErrorNote, Loading, PageTitle, Section, StatusBadge, Table } from '../ui/kit';
import type { Overview, OverviewEvent } from '@billow/contract';
import { eventLabel, objectLabel } from '../events';
import type { Order } from './types';

interface Figures {
  overview: Overview;
  orders: Page<Order>;
}

async function loadFigures(): Promise<Figures> {
  const [overview, orders] = await Promise.all([api<Overview>('GET', '/overview/'), api<Page<Order>>('GET', '/orders/', { query: { page_size: 5, count: 'capped' } })]);
  return { overview, orders };
}

/** Amounts per currency, one line each; a dash when nothing moved. */
function Amounts({ amounts }: { amounts: Array<{ currency: string; units: number }> }) {
  if (amounts.length === 0) return <span className="figure">—</span>;
  return (
    <>
      {amounts.map((a) => (
        <span key={a.currency} className="figure">
          {money(a.units, a.currency)}
        </span>
      ))}
    </>
  );
}

const TILES: Array<[string, (o: Overview) => ReactNode]> = [
  ['Revenue today (net)', (o) => <Amounts amounts={o.revenue.today.currencies.map((c) => ({ currency: c.currency, units: c.netUnits }))} />],
  ['Revenue this month (net)', (o) => <Amounts amounts={o.revenue.month.currencies.map((c) => ({ currency: c.currency, units: c.netUnits }))} />],
  ['MRR', (o) => <Amounts amounts={o.mrr.map((m) => ({ currency: m.currency, units: m.amountUnits }))} />],
  ['Active subscriptions', (o) => <span className="figure">{o.activeSubscriptions}</span>],
  ['Trials', (o) => <span className="figure">{o.trials}</span>],
  ['Failed payments', (o) => <span className="figure">{o.failedPayments.count}</span>],
];

function Tiles({ overview }: { overview: Overview }) {
  return (
    <dl className="tiles">
      {TILES.map(([label, figure]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{figure(overview)}</dd>
        </div>
      ))}
    </dl>
  );
}

const ACTORS: Record<string, string> = { customer_portal: 'by the customer in the portal' };

/** Who an event is about: their name, else their email, else their customerId, linked to their page. */
function EventCustomer({ customer }: { customer: OverviewEvent['customer'] }) {
  if (!customer) return null;
  return (
    <>
      {' '}
      for <Link to={`/customers/${encodeURIComponent(customer.customerId)}`}>{customer.name ?? customer.email ?? customer.customerId}</Link>
    </>
  );
}

/** One event of the recent ones: what happened, to what, for whom, by whom, when (words, never the wire code). */
function EventLine({ event }: { event: OverviewEvent }) {
  const aboutCustomer = event.objectType === 'customer' && event.customer;
  const object = event.objectId && !aboutCustomer ? ` ${objectLabel(event.objectType)} ${event.objectId}`.trimEnd() : '';
  const actor = event.actor ? (ACTORS[event.actor] ?? 'by someone else') : '';
  return (
    <>
      <strong>{eventLabel(event.type)}</strong>
      {object}
      <EventCustomer customer={event.customer} /> {actor} <span className="muted">{when(event.createdOn)}</span>
    </>
  );
}

export function Home() {
  const figures = useResource(loadFigures, []);
  const overview = figures.data?.overview;
  return (
    <>
      <PageTitle>Home</PageTitle>
      <Loading loading={figures.loading && !figures.data} />
      <ErrorNote error={figures.error} />
      {overview ? <Tiles overview={overview} /> : null}
      {overview ? <p className="hint">Days and months in {overview.timeZone}; amounts include tax, refunds subtracted.</p> : null}
      {overview && overview.failedPayments.newest.length > 0 ? (
        <Section title="Failed payments that need attention">
          <ul className="plain">
            {overview.failedPayments.newest.map((f) => (
              <li key={f.invoiceId}>
                <Link to={`/customers/${encodeURIComponent(f.customerId)}`}>{f.customerEmail ?? f.customerId}</Link> {money(f.amountUnits, f.currency)} ({f.invoiceNumber ?? f.invoiceId}, {f.attemptCount} attempts
                {f.failureMessage ? `: ${f.failureMessage}` : ''}) <span className="muted">{when(f.failedOn)}</span>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      <Section title="Newest orders" actions={<Link to="/orders">All orders</Link>}>
        <Table
          caption="Newest orders"
          rows={figures.data?.orders.results}
          rowKey={(o) => o.id}
          empty="No orders yet. Make a buy link under Selling and buy something in the sandbox."
          columns={[
            { title: 'Order', cell: (o) => <Link to={`/orders/${encodeURIComponent(o.id)}`}>{o.id}</Link> },
            { title: 'Customer', cell: (o) => <Link to={`/customers/${encodeURIComponent(o.customer?.customerId ?? '')}`}>{o.customer?.email ?? o.customer?.customerId}</Link> },
            { title: 'Plan', cell: (o) => o.plan?.name ?? o.plan?.identifier ?? '—' },
            { title: 'Total', numeric: true, cell: (o) => money(o.amountTotalUnits, o.saleCurrency) },
            { title: 'Status', cell: (o) => <StatusBadge status={o.status} /> },
            { title: 'Paid', nowrap: true, cell: (o) => when(o.paidAt) },
          ]}
        />
      </Section>
      {overview && overview.events.length > 0 ? (
        <Section title="Recent events">
          <ul className="plain">
            {overview.events.map((e) => (
              <li key={e.id}>
                <EventLine event={e} />
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
    </>
  );
}
