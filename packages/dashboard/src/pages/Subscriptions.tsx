import { useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, ApiError, type Page } from '../api';
import { useAction, useResource } from '../data';
import { day, majorMoney, money, words } from '../format';
import { useCan } from '../session';
import { ErrorNote, Field, Loading, Notice, PageTitle, Pager, Section, Select, StatusBadge, Table } from '../ui/kit';
import type { SubscriptionChangePreview } from '@billow/contract';
import type { Plan, Subscription } from './types';

const PAGE_SIZE = 20;
const STATUSES: Array<[string, string]> = [['', 'Any status'], ['active', 'Active'], ['trialing', 'Trialing'], ['past_due', 'Past due'], ['canceled', 'Canceled'], ['incomplete', 'Incomplete']];

export function Subscriptions() {
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const customerId = params.get('customer_id') ?? '';
  // A plan's version, as the plan page links to it (decision 0086).
  const plan = params.get('plan') ?? '';
  const version = params.get('version') ?? '';
  const page = Number(params.get('page') ?? '1') || 1;
  const [typedCustomer, setTypedCustomer] = useState(customerId);
  const query = { status, customer_id: customerId, plan, plan_version: version, page, page_size: PAGE_SIZE, sort: 'createdOn', count: 'capped' };
  const list = useResource(() => api<Page<Subscription>>('GET', '/subscriptions/', { query }), [status, customerId, plan, version, page]);
  const filter = (next: Record<string, string>) => setParams(Object.fromEntries(Object.entries({ status, customer_id: customerId, plan, version, ...next }).filter(([, v]) => v)));

  return (
    <>
      <PageTitle>Subscriptions</PageTitle>
      <form
        className="row-form"
        role="search"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          filter({ customer_id: typedCustomer });
        }}
      >
        <Select label="Status" options={STATUSES} value={status} onChange={(e) => filter({ status: e.target.value })} />
        <Field label="Customer id" value={typedCustomer} onChange={(e) => setTypedCustomer(e.target.value)} />
        <button type="submit">Filter</button>
      </form>
      {plan ? (
        <p>
          Only plan <code>{plan}</code>
          {version ? `, version ${version}` : ''}. <Link to="/subscriptions">Show every plan</Link>
        </p>
      ) : null}
      <ErrorNote error={list.error} />
      <Loading loading={list.loading && !list.data} />
      <Table
        caption="Subscriptions"
        rows={list.data?.results}
        rowKey={(s) => s.id}
        empty="No subscription matches."
        columns={[
          { title: 'Customer', cell: (s) => <Link to={`/customers/${encodeURIComponent(s.customerId)}`}>{s.customerId}</Link> },
          { title: 'Plan', cell: (s) => <Link to={`/subscriptions/${encodeURIComponent(s.id)}`}>{`${s.plan.name} v${s.planVersion}`}</Link> },
          { title: 'Amount', numeric: true, cell: (s) => majorMoney(s.amount, s.currency) },
          { title: 'Period', cell: (s) => words(s.chargePeriod) },
          { title: 'Status', cell: (s) => <StatusBadge status={s.status} /> },
          { title: 'Period ends', cell: (s) => day(s.billingPeriodEndTime) },
        ]}
      />
      {list.data ? <Pager label="Subscription pages" page={page} count={list.data.count} capped={list.data.countCapped} pageSize={PAGE_SIZE} onPage={(p) => filter({ page: String(p) })} /> : null}
    </>
  );
}

interface Upcoming {
  currency: string;
  periodStart: string;
  periodEnd: string;
  amountTotalUnits: number;
  lines: Array<{ description: string; amountUnits: number }>;
}

async function loadSubscription(id: string) {
  const path = `/subscriptions/${encodeURIComponent(id)}/`;
  const [subscription, plans] = await Promise.all([api<Subscription>('GET', path), api<Page<Plan>>('GET', '/catalog/plans/', { query: { page_size: 100 } })]);
  let upcoming: Upcoming | null = null;
  try {
    upcoming = await api<Upcoming>('GET', `${path}upcoming-invoice/`);
  } catch (error) {
    // A canceled or ending subscription has no next renewal to preview.
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
  }
  return { subscription, plans: plans.results, upcoming };
}

function Cancel({ id, onDone }: { id: string; onDone(): void }) {
  const [type, setType] = useState('CURRENT_PERIOD_ENDS');
  const cancel = useAction(() => api<{ message: string }>('POST', `/subscriptions/${encodeURIComponent(id)}/cancel/`, { body: { cancellationType: type } }));
  return (
    <form
      className="row-form"
      aria-label="Cancel the subscription"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void cancel.perform().then((r) => r !== undefined && onDone());
      }}
    >
      <Select label="When" options={[['CURRENT_PERIOD_ENDS', 'At the end of the period'], ['IMMEDIATE', 'Now']]} value={type} onChange={(e) => setType(e.target.value)} />
      <button type="submit" className="danger" disabled={cancel.busy}>
        Cancel subscription
      </button>
      <ErrorNote error={cancel.error} />
      {cancel.result ? <Notice>{cancel.result.message}</Notice> : null}
    </form>
  );
}

function ChangePlan({ subscription, plans, onDone }: { subscription: Subscription; plans: Plan[]; onDone(): void }) {
  // A subscription names its product by name; its current plan says which product (by id) the other plans must share.
  const productId = plans.find((p) => p.identifier === subscription.plan.identifier)?.product;
  const choices = plans.filter((p) => p.product === productId && p.identifier !== subscription.plan.identifier && p.status !== 'draft' && !p.isArchived);
  const [plan, setPlan] = useState(choices[0]?.identifier ?? '');
  const [period, setPeriod] = useState(subscription.chargePeriod);
  const change = useAction(() => api<{ checkoutUrl: string | null }>('POST', `/subscriptions/${encodeURIComponent(subscription.id)}/update/`, { body: { planIdentifier: plan, chargePeriod: period } }));
  const preview = useResource(
    () =>
      plan
        ? api<SubscriptionChangePreview>('POST', `/subscriptions/${encodeURIComponent(subscription.id)}/update/preview/`, { body: { planIdentifier: plan, chargePeriod: period } })
        : Promise.resolve(null),
    [subscription.id, plan, period],
  );
  if (choices.length === 0) return <p>No other published plan of this product to change to.</p>;
  return (
    <>
      <form
        className="row-form"
        aria-label="Change the plan"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          void change.perform().then((r) => r !== undefined && onDone());
        }}
      >
        <Select label="New plan" options={choices.map((p) => [p.identifier, p.name])} value={plan} onChange={(e) => setPlan(e.target.value)} />
        <Select label="Charged" options={[['MONTHLY', 'Monthly'], ['YEARLY', 'Yearly']]} value={period} onChange={(e) => setPeriod(e.target.value)} />
        <button type="submit" disabled={change.busy}>
          Change plan now
        </button>
        <ErrorNote error={change.error} />
      </form>
      <ChangeCost preview={preview.data ?? null} loading={preview.loading} />
      <ErrorNote error={preview.error} />
    </>
  );
}

/** What the chosen change costs now, from the server's own preview of it. */
function ChangeCost({ preview, loading }: { preview: SubscriptionChangePreview | null; loading: boolean }) {
  if (!preview) return <Loading loading={loading} />;
  const m = (units: number) => money(units, preview.currency);
  return (
    <dl className="facts" aria-live="polite" aria-label="What the change costs now">
      <dt>Unused time credited</dt>
      <dd>{m(preview.unusedCreditUnits)}</dd>
      <dt>New plan until {day(preview.periodEnd)}</dt>
      <dd>{m(preview.amountTotalUnits)}</dd>
      <dt>Paid from credit</dt>
      <dd>{m(preview.creditAppliedUnits)}</dd>
      <dt>Charged to the card now</dt>
      <dd>
        <strong>{m(preview.amountDueNowUnits)}</strong>
      </dd>
    </dl>
  );
}

export function SubscriptionDetail() {
  const { id = '' } = useParams();
  const view = useResource(() => loadSubscription(id), [id]);
  const canWrite = useCan('subscriptions');
  const s = view.data?.subscription;
  const live = s && !['canceled', 'superseded', 'incomplete_expired'].includes(s.status);
  return (
    <>
      <PageTitle>{s ? `${s.plan.name} for ${s.customerId}` : 'Subscription'}</PageTitle>
      <p>
        <Link to="/subscriptions">All subscriptions</Link>
      </p>
      <ErrorNote error={view.error} />
      <Loading loading={view.loading && !view.data} />
      {s ? (
        <>
          <dl className="facts">
            <dt>Status</dt>
            <dd>
              <StatusBadge status={s.status} />
            </dd>
            <dt>Customer</dt>
            <dd>
              <Link to={`/customers/${encodeURIComponent(s.customerId)}`}>{s.customerId}</Link>
            </dd>
            <dt>Plan</dt>
            <dd>{`${s.plan.name} (version ${s.planVersion}), ${majorMoney(s.amount, s.currency)} ${words(s.chargePeriod).toLowerCase()}`}</dd>
            <dt>Period ends</dt>
            <dd>{day(s.billingPeriodEndTime)}</dd>
            {s.canceledAt ? (
              <>
                <dt>Canceled</dt>
                <dd>{day(s.canceledAt)}</dd>
              </>
            ) : null}
          </dl>
          {view.data?.upcoming ? (
            <Section title="Next renewal">
              <p>
                {day(view.data.upcoming.periodStart)} to {day(view.data.upcoming.periodEnd)}: <strong>{money(view.data.upcoming.amountTotalUnits, view.data.upcoming.currency)}</strong>
              </p>
            </Section>
          ) : null}
          {canWrite && live ? (
            <>
              <Section title="Change plan">
                <ChangePlan subscription={s} plans={view.data!.plans} onDone={view.reload} />
              </Section>
              <Section title="Cancel">
                <Cancel id={s.id} onDone={view.reload} />
              </Section>
            </>
          ) : null}
        </>
      ) : null}
    </>
  );
}
