import { Link } from 'react-router';
import { api, type Page } from '../api';
import { useResource } from '../data';
import type { ReactNode } from 'react';
import { count, money, when } from '../format';
import { ErrorNote, Loading, PageTitle, Section, StatusBadge, Table } from '../ui/kit';
import type { Overview, OverviewEvent } from '@billow/contract';
import { eventLabel, objectLabel } from '../events';
import { t, type MessageKey } from '../i18n/language';
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

const TILES: Array<[MessageKey, (o: Overview) => ReactNode]> = [
  ['home.revenueToday', (o) => <Amounts amounts={o.revenue.today.currencies.map((c) => ({ currency: c.currency, units: c.netUnits }))} />],
  ['home.revenueMonth', (o) => <Amounts amounts={o.revenue.month.currencies.map((c) => ({ currency: c.currency, units: c.netUnits }))} />],
  ['home.mrr', (o) => <Amounts amounts={o.mrr.map((m) => ({ currency: m.currency, units: m.amountUnits }))} />],
  ['home.activeSubscriptions', (o) => <span className="figure">{count(o.activeSubscriptions)}</span>],
  ['home.trials', (o) => <span className="figure">{count(o.trials)}</span>],
  ['home.failedPayments', (o) => <span className="figure">{count(o.failedPayments.count)}</span>],
];

function Tiles({ overview }: { overview: Overview }) {
  return (
    <dl className="tiles">
      {TILES.map(([label, figure]) => (
        <div key={label}>
          <dt>{t(label)}</dt>
          <dd>{figure(overview)}</dd>
        </div>
      ))}
    </dl>
  );
}

const ACTORS: Record<string, MessageKey> = { customer_portal: 'home.byPortal' };

/** Who an event is about: their name, else their email, else their customerId, linked to their page. */
function EventCustomer({ customer }: { customer: OverviewEvent['customer'] }) {
  if (!customer) return null;
  return (
    <>
      {' '}
      {t('home.for')} <Link to={`/customers/${encodeURIComponent(customer.customerId)}`}>{customer.name ?? customer.email ?? customer.customerId}</Link>
    </>
  );
}

/** One event of the recent ones: what happened, to what, for whom, by whom, when (words, never the wire code). */
function EventLine({ event }: { event: OverviewEvent }) {
  const aboutCustomer = event.objectType === 'customer' && event.customer;
  const object = event.objectId && !aboutCustomer ? ` ${objectLabel(event.objectType)} ${event.objectId}`.trimEnd() : '';
  const actor = event.actor ? t(ACTORS[event.actor] ?? 'home.bySomeoneElse') : '';
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
      <PageTitle>{t('home.title')}</PageTitle>
      <Loading loading={figures.loading && !figures.data} />
      <ErrorNote error={figures.error} />
      {overview ? <Tiles overview={overview} /> : null}
      {overview ? <p className="hint">{t('home.timeZone', { timeZone: overview.timeZone })}</p> : null}
      {overview && overview.failedPayments.newest.length > 0 ? (
        <Section title={t('home.attention')}>
          <ul className="plain">
            {overview.failedPayments.newest.map((f) => (
              <li key={f.invoiceId}>
                <Link to={`/customers/${encodeURIComponent(f.customerId)}`}>{f.customerEmail ?? f.customerId}</Link> {money(f.amountUnits, f.currency)} ({f.invoiceNumber ?? f.invoiceId}, {t('home.attempts', { count: f.attemptCount })}
                {f.failureMessage ? `: ${f.failureMessage}` : ''}) <span className="muted">{when(f.failedOn)}</span>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      <Section title={t('home.newestOrders')} actions={<Link to="/orders">{t('home.allOrders')}</Link>}>
        <Table
          caption={t('home.newestOrders')}
          rows={figures.data?.orders.results}
          rowKey={(o) => o.id}
          empty={t('home.noOrders')}
          columns={[
            { title: t('home.order'), cell: (o) => <Link to={`/orders/${encodeURIComponent(o.id)}`}>{o.id}</Link> },
            { title: t('common.customer'), cell: (o) => <Link to={`/customers/${encodeURIComponent(o.customer?.customerId ?? '')}`}>{o.customer?.email ?? o.customer?.customerId}</Link> },
            { title: t('common.plan'), cell: (o) => o.plan?.name ?? o.plan?.identifier ?? '—' },
            { title: t('common.total'), numeric: true, cell: (o) => money(o.amountTotalUnits, o.saleCurrency) },
            { title: t('common.status'), cell: (o) => <StatusBadge status={o.status} /> },
            { title: t('common.paid'), nowrap: true, cell: (o) => when(o.paidAt) },
          ]}
        />
      </Section>
      {overview && overview.events.length > 0 ? (
        <Section title={t('home.recentEvents')}>
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
