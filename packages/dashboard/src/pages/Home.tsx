import { Link } from 'react-router';
import { api, ApiError, type Page } from '../api';
import { useResource } from '../data';
import { money, when, words } from '../format';
import { ErrorNote, Loading, PageTitle, Section, StatusBadge, Table } from '../ui/kit';
import type { Order } from './types';

/** GET /overview/ (the lists helper's Billow extension); its figures are per currency, in minor units. */
interface Amounts {
  currency: string;
  paid?: number;
  refunded?: number;
  net?: number;
  amount?: number;
}
interface Overview {
  today?: Amounts[];
  month?: Amounts[];
  mrr?: Amounts[];
  activeSubscriptions?: number;
  trials?: number;
  failedPayments?: { count: number; newest?: Array<{ id: string; customerId?: string; customer?: string; amountUnits?: number; currency?: string; createdOn?: string; invoiceId?: string }> };
  events?: Array<{ id: string; type?: string; eventType?: string; createdOn?: string; summary?: string }>;
}

interface Figures {
  overview: Overview | null;
  orders: Page<Order>;
}

async function loadFigures(): Promise<Figures> {
  const orders = api<Page<Order>>('GET', '/orders/', { query: { page_size: 5 } });
  let overview: Overview | null = null;
  try {
    overview = await api<Overview>('GET', '/overview/');
  } catch (error) {
    // A server without the overview operation still shows the newest orders.
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
  }
  return { overview, orders: await orders };
}

function AmountList({ amounts, field }: { amounts: Amounts[] | undefined; field: keyof Amounts }) {
  if (!amounts || amounts.length === 0) return <span className="figure">—</span>;
  return (
    <>
      {amounts.map((a) => (
        <span key={a.currency} className="figure">
          {money((a[field] as number | undefined) ?? a.amount ?? 0, a.currency)}
        </span>
      ))}
    </>
  );
}

function Tiles({ overview }: { overview: Overview }) {
  return (
    <dl className="tiles">
      <div>
        <dt>Revenue today (net)</dt>
        <dd>
          <AmountList amounts={overview.today} field="net" />
        </dd>
      </div>
      <div>
        <dt>Revenue this month (net)</dt>
        <dd>
          <AmountList amounts={overview.month} field="net" />
        </dd>
      </div>
      <div>
        <dt>MRR</dt>
        <dd>
          <AmountList amounts={overview.mrr} field="amount" />
        </dd>
      </div>
      <div>
        <dt>Active subscriptions</dt>
        <dd className="figure">{overview.activeSubscriptions ?? '—'}</dd>
      </div>
      <div>
        <dt>Trials</dt>
        <dd className="figure">{overview.trials ?? '—'}</dd>
      </div>
      <div>
        <dt>Failed payments</dt>
        <dd className="figure">{overview.failedPayments?.count ?? 0}</dd>
      </div>
    </dl>
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
      {overview?.failedPayments?.newest?.length ? (
        <Section title="Failed payments that need attention">
          <ul className="plain">
            {overview.failedPayments.newest.map((f) => (
              <li key={f.id}>
                {f.customerId ?? f.customer ? <Link to={`/customers/${encodeURIComponent(f.customerId ?? f.customer ?? '')}`}>{f.customerId ?? f.customer}</Link> : f.id}{' '}
                {f.amountUnits !== undefined ? money(f.amountUnits, f.currency) : null} {when(f.createdOn)}
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
            { title: 'Paid', cell: (o) => when(o.paidAt) },
          ]}
        />
      </Section>
      {overview?.events?.length ? (
        <Section title="Recent events">
          <ul className="plain">
            {overview.events.map((e) => (
              <li key={e.id}>
                <strong>{words(e.type ?? e.eventType)}</strong> {e.summary ?? ''} <span className="muted">{when(e.createdOn)}</span>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
    </>
  );
}
