import { useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, ApiError, type Page } from '../api';
import { useAction, useResource } from '../data';
import { day, majorMoney, money, words } from '../format';
import { useCan } from '../session';
import { ErrorNote, Field, Loading, Notice, PageTitle, Pager, Section, Select, StatusBadge, Table } from '../ui/kit';
import type { SubscriptionChangePreview } from '@billow/contract';
import { t } from '../i18n/language';
import type { Plan, Subscription } from './types';

const PAGE_SIZE = 20;
const statuses = (): Array<[string, string]> => [['', t('subscriptions.anyStatus')], ...['active', 'trialing', 'past_due', 'canceled', 'incomplete'].map((value): [string, string] => [value, words(value)])];

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
      <PageTitle>{t('subscriptions.title')}</PageTitle>
      <form
        className="row-form"
        role="search"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          filter({ customer_id: typedCustomer });
        }}
      >
        <Select label={t('common.status')} options={statuses()} value={status} onChange={(e) => filter({ status: e.target.value })} />
        <Field label={t('common.customerId')} value={typedCustomer} onChange={(e) => setTypedCustomer(e.target.value)} />
        <button type="submit">{t('subscriptions.filter')}</button>
      </form>
      {plan ? (
        <p>
          {t('subscriptions.onlyPlan')} <code>{plan}</code>
          {version ? t('subscriptions.onlyVersion', { version }) : ''}. <Link to="/subscriptions">{t('subscriptions.everyPlan')}</Link>
        </p>
      ) : null}
      <ErrorNote error={list.error} />
      <Loading loading={list.loading && !list.data} />
      <Table
        caption={t('subscriptions.title')}
        rows={list.data?.results}
        rowKey={(s) => s.id}
        empty={t('subscriptions.noMatch')}
        columns={[
          { title: t('common.customer'), cell: (s) => <Link to={`/customers/${encodeURIComponent(s.customerId)}`}>{s.customerId}</Link> },
          { title: t('common.plan'), cell: (s) => <Link to={`/subscriptions/${encodeURIComponent(s.id)}`}>{t('subscriptions.planShort', { plan: s.plan.name, version: s.planVersion })}</Link> },
          { title: t('common.amount'), numeric: true, cell: (s) => majorMoney(s.amount, s.currency) },
          { title: t('common.period'), cell: (s) => words(s.chargePeriod) },
          { title: t('common.status'), cell: (s) => <StatusBadge status={s.status} /> },
          { title: t('subscriptions.periodEnds'), cell: (s) => day(s.billingPeriodEndTime) },
        ]}
      />
      {list.data ? <Pager label={t('subscriptions.pages')} page={page} count={list.data.count} capped={list.data.countCapped} pageSize={PAGE_SIZE} onPage={(p) => filter({ page: String(p) })} /> : null}
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
      aria-label={t('subscriptions.cancelForm')}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void cancel.perform().then((r) => r !== undefined && onDone());
      }}
    >
      <Select
        label={t('common.when')}
        options={[
          ['CURRENT_PERIOD_ENDS', t('subscriptions.atPeriodEnd')],
          ['IMMEDIATE', t('subscriptions.now')],
        ]} value={type} onChange={(e) => setType(e.target.value)} />
      <button type="submit" className="danger" disabled={cancel.busy}>
        {t('subscriptions.cancelButton')}
      </button>
      <ErrorNote error={cancel.error} />
      {cancel.result ? <Notice>{type === 'IMMEDIATE' ? t('subscriptions.cancelledNow') : t('subscriptions.cancelsAtEnd')}</Notice> : null}
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
  if (choices.length === 0) return <p>{t('subscriptions.noOtherPlan')}</p>;
  return (
    <>
      <form
        className="row-form"
        aria-label={t('subscriptions.changeForm')}
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          void change.perform().then((r) => r !== undefined && onDone());
        }}
      >
        <Select label={t('subscriptions.newPlan')} options={choices.map((p) => [p.identifier, p.name])} value={plan} onChange={(e) => setPlan(e.target.value)} />
        <Select label={t('subscriptions.charged')} options={[['MONTHLY', words('MONTHLY')], ['YEARLY', words('YEARLY')]]} value={period} onChange={(e) => setPeriod(e.target.value)} />
        <button type="submit" disabled={change.busy}>
          {t('subscriptions.changeNow')}
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
    <dl className="facts" aria-live="polite" aria-label={t('subscriptions.changeCost')}>
      <dt>{t('subscriptions.unusedCredited')}</dt>
      <dd>{m(preview.unusedCreditUnits)}</dd>
      <dt>{t('subscriptions.newPlanUntil', { day: day(preview.periodEnd) })}</dt>
      <dd>{m(preview.amountTotalUnits)}</dd>
      <dt>{t('subscriptions.paidFromCredit')}</dt>
      <dd>{m(preview.creditAppliedUnits)}</dd>
      <dt>{t('subscriptions.chargedNow')}</dt>
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
      <PageTitle>{s ? t('subscriptions.planFor', { plan: s.plan.name, customer: s.customerId }) : t('subscriptions.one')}</PageTitle>
      <p>
        <Link to="/subscriptions">{t('subscriptions.all')}</Link>
      </p>
      <ErrorNote error={view.error} />
      <Loading loading={view.loading && !view.data} />
      {s ? (
        <>
          <dl className="facts">
            <dt>{t('common.status')}</dt>
            <dd>
              <StatusBadge status={s.status} />
            </dd>
            <dt>{t('common.customer')}</dt>
            <dd>
              <Link to={`/customers/${encodeURIComponent(s.customerId)}`}>{s.customerId}</Link>
            </dd>
            <dt>{t('common.plan')}</dt>
            <dd>{t('subscriptions.planLine', { plan: s.plan.name, version: s.planVersion, amount: majorMoney(s.amount, s.currency), period: words(s.chargePeriod).toLowerCase() })}</dd>
            <dt>{t('subscriptions.periodEnds')}</dt>
            <dd>{day(s.billingPeriodEndTime)}</dd>
            {s.canceledAt ? (
              <>
                <dt>{t('subscriptions.canceled')}</dt>
                <dd>{day(s.canceledAt)}</dd>
              </>
            ) : null}
          </dl>
          {view.data?.upcoming ? (
            <Section title={t('subscriptions.nextRenewal')}>
              <p>
                {t('subscriptions.renewalSpan', { from: day(view.data.upcoming.periodStart), to: day(view.data.upcoming.periodEnd) })} <strong>{money(view.data.upcoming.amountTotalUnits, view.data.upcoming.currency)}</strong>
              </p>
            </Section>
          ) : null}
          {canWrite && live ? (
            <>
              <Section title={t('subscriptions.changePlan')}>
                <ChangePlan subscription={s} plans={view.data!.plans} onDone={view.reload} />
              </Section>
              <Section title={t('subscriptions.cancel')}>
                <Cancel id={s.id} onDone={view.reload} />
              </Section>
            </>
          ) : null}
        </>
      ) : null}
    </>
  );
}
