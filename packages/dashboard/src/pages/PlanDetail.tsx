import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api, type Page } from '../api';
import { useAction, useResource } from '../data';
import { count, day, majorMoney, words } from '../format';
import { useCan } from '../session';
import { ActionButton, ChargePeriodSelect, ErrorNote, Field, Loading, Notice, PageTitle, Section, Select, StatusBadge, Table } from '../ui/kit';
import { FileTable, UploadForm } from './Media';
import { t, type MessageKey } from '../i18n/language';
import type { Feature, Plan } from './types';

interface Price {
  priceType: string;
  currency: string;
  chargeCatalogPrice: Array<{ feature: string | null; charges: Array<{ chargePeriod: string; priceData: { amount: number | string } }> }>;
}
interface PlanEntitlement {
  feature: { identifier: string; name: string } | string;
  details: { value: number | boolean | null; hardLimit?: boolean };
}
interface PlanView {
  versions: Page<Plan>;
  subscribers: Map<number, number>;
  prices: Page<Price> | Price[];
  entitlements: Page<PlanEntitlement> | PlanEntitlement[];
  features: Page<Feature>;
}

const rowsOf = <T,>(value: Page<T> | T[]): T[] => (Array.isArray(value) ? value : value.results);

async function loadPlan(identifier: string): Promise<PlanView> {
  const path = `/catalog/plans/${encodeURIComponent(identifier)}`;
  const [versions, counts, prices, entitlements, features] = await Promise.all([
    api<Page<Plan>>('GET', `${path}/versions/`),
    api<{ versions: Array<{ version: number; subscriptions: number }> }>('GET', '/subscriptions/versions/', { query: { plan: identifier } }),
    api<Page<Price> | Price[]>('GET', `${path}/prices/`),
    api<Page<PlanEntitlement> | PlanEntitlement[]>('GET', `${path}/features/`),
    api<Page<Feature>>('GET', '/catalog/features/', { query: { page_size: 100 } }),
  ]);
  const subscribers = new Map(counts.versions.map((v) => [v.version, v.subscriptions]));
  return { versions, subscribers, prices, entitlements, features };
}

/** The API takes amounts as JSON numbers in major units; text that is not a number goes as typed, for the API to refuse in its words. */
const asNumber = (text: string): number | string => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);

const pricePath = (identifier: string, currency: string) => `/catalog/plans/${encodeURIComponent(identifier)}/prices/${encodeURIComponent(currency)}/`;

/**
 * One price per currency: the base charge for a month, a year or once (the API takes major
 * units, e.g. 29 or 19.99). Sets that currency's price only (decision 0086): the others stay.
 */
function PriceForm({ identifier, onDone }: { identifier: string; onDone(): void }) {
  const [currency, setCurrency] = useState('USD');
  const [period, setPeriod] = useState('MONTHLY');
  const [amount, setAmount] = useState('');
  const save = useAction((body: object) => api('PUT', pricePath(identifier, currency), { body }));
  async function submit(event: FormEvent) {
    event.preventDefault();
    const body = { priceType: 'PAID', chargeCatalogPrice: [{ charges: [{ chargePeriod: period, priceData: { amount: asNumber(amount) } }] }] };
    if ((await save.perform(body)) !== undefined) onDone();
  }
  return (
    <form className="row-form" onSubmit={submit} aria-label={t('plan.priceForm')}>
      <Field label={t('plan.currency')} required maxLength={3} value={currency} onChange={(e) => setCurrency(e.target.value.toUpperCase())} />
      <ChargePeriodSelect value={period} onChange={setPeriod} />
      <Field label={t('common.amount')} required inputMode="decimal" hint={t('plan.amountHint')} value={amount} onChange={(e) => setAmount(e.target.value)} />
      <button type="submit" disabled={save.busy}>
        {t('plan.setPrice')}
      </button>
      <ErrorNote error={save.error} />
    </form>
  );
}

function RemovePrice({ identifier, currency, onDone }: { identifier: string; currency: string; onDone(): void }) {
  return <ActionButton label={t('plan.remove')} hidden={t('plan.priceIn', { currency })} run={() => api('DELETE', pricePath(identifier, currency))} onDone={onDone} />;
}

const PRICE_TYPES: Record<string, MessageKey> = { PAID: 'plan.typePaid', FREE: 'plan.typeFree', CUSTOM: 'plan.typeCustom' };
const PERIODS: Record<string, MessageKey> = { MONTHLY: 'plan.aMonth', YEARLY: 'plan.aYear', ONE_TIME: 'plan.once' };

/** A price's charges in words: "$29.00 a month, $290.00 a year". */
export function chargeOf(amount: string, period: string, perUnit: boolean): string {
  const key = PERIODS[period];
  const charge = key ? t(key, { amount }) : t('plan.perPeriod', { amount, period: words(period).toLowerCase() });
  return perUnit ? t('plan.perUnit', { charge }) : charge;
}

const chargesOf = (p: Price) => p.chargeCatalogPrice.flatMap((c) => c.charges.map((ch) => chargeOf(majorMoney(ch.priceData.amount, p.currency), ch.chargePeriod, !!c.feature))).join(', ');

/** An entitlement's allowance: a number as the language writes it, on or off, or unlimited. */
function allowanceOf(value: number | boolean | null): string {
  if (value === null) return t('common.unlimited');
  if (typeof value === 'boolean') return value ? t('common.yes') : t('common.no');
  return count(value);
}

function EntitlementForm({ identifier, features, onDone }: { identifier: string; features: Feature[]; onDone(): void }) {
  const [feature, setFeature] = useState(features[0]?.identifier ?? '');
  const [value, setValue] = useState('');
  const add = useAction((body: object) => api('POST', `/catalog/plans/${encodeURIComponent(identifier)}/features/`, { body }));
  const type = features.find((f) => f.identifier === feature)?.featureType;
  async function submit(event: FormEvent) {
    event.preventDefault();
    const details = type === 'BOOLEAN' ? { value: true } : { value: Number(value) };
    if ((await add.perform({ planEntitlements: [{ feature, details }] })) !== undefined) onDone();
  }
  if (features.length === 0) return <p>{t('plan.noFeature')}</p>;
  return (
    <form className="row-form" onSubmit={submit} aria-label={t('plan.entitlementForm')}>
      <Select label={t('customer.feature')} options={features.map((f) => [f.identifier, f.name])} value={feature} onChange={(e) => setFeature(e.target.value)} />
      {type !== 'BOOLEAN' ? <Field label={t('plan.allowance')} required inputMode="numeric" value={value} onChange={(e) => setValue(e.target.value)} /> : null}
      <button type="submit" disabled={add.busy}>
        {t('plan.addToDraft')}
      </button>
      <ErrorNote error={add.error} />
    </form>
  );
}

function Publish({ identifier, hasDraft, onDone }: { identifier: string; hasDraft: boolean; onDone(): void }) {
  const path = `/catalog/plans/${encodeURIComponent(identifier)}`;
  const publish = useAction(() => api('POST', `${path}/publish/`, { body: {} }));
  const discard = useAction(() => api('DELETE', `${path}/discard/`));
  if (!hasDraft) return <Notice>{t('plan.published')}</Notice>;
  return (
    <div className="actions">
      <button type="button" disabled={publish.busy} onClick={() => void publish.perform().then((r) => r !== undefined && onDone())}>
        {t('plan.publish')}
      </button>
      <button type="button" className="secondary" disabled={discard.busy} onClick={() => void discard.perform().then((r) => r !== undefined && onDone())}>
        {t('plan.discard')}
      </button>
      <ErrorNote error={publish.error ?? discard.error} />
    </div>
  );
}

/** How many subscriptions a version has, linked to the list of them (decision 0086). */
function Subscribers({ identifier, version, count }: { identifier: string; version: number; count: number }) {
  if (count === 0) return <>0</>;
  const to = `/subscriptions?${new URLSearchParams({ plan: identifier, version: String(version) }).toString()}`;
  return (
    <Link to={to}>
      {count}
      <span className="visually-hidden">
        {' '}
        {t('plan.subscriptionsOn', { count, version })}
      </span>
    </Link>
  );
}

export function PlanDetail() {
  const { identifier = '' } = useParams();
  const view = useResource(() => loadPlan(identifier), [identifier]);
  const canWrite = useCan('catalog');
  const versions = view.data?.versions.results ?? [];
  const latest = versions.reduce<Plan | undefined>((top, v) => (!top || v.version > top.version ? v : top), undefined);
  const hasDraft = latest?.status === 'draft';
  return (
    <>
      <PageTitle>{latest?.name ?? identifier}</PageTitle>
      <p>
        <Link to="/catalog">{t('catalog.title')}</Link>
      </p>
      <ErrorNote error={view.error} />
      <Loading loading={view.loading && !view.data} />
      {view.data ? (
        <>
          <Section title={t('plan.versions')}>
            <Table
              caption={t('plan.versionsCaption')}
              rows={versions}
              rowKey={(v) => String(v.version)}
              empty={t('plan.noVersions')}
              columns={[
                { title: t('catalog.version'), numeric: true, cell: (v) => v.version },
                { title: t('common.status'), cell: (v) => <StatusBadge status={v.status} /> },
                { title: t('orders.created'), cell: (v) => day(v.createdOn) },
                { title: t('plan.subscribers'), numeric: true, cell: (v) => <Subscribers identifier={identifier} version={v.version} count={view.data?.subscribers.get(v.version) ?? 0} /> },
              ]}
            />
            {canWrite ? <Publish identifier={identifier} hasDraft={hasDraft} onDone={view.reload} /> : null}
          </Section>
          <Section title={t('plan.prices')}>
            <Table
              caption={t('plan.pricesCaption')}
              rows={rowsOf(view.data.prices)}
              rowKey={(p) => p.currency}
              empty={t('plan.noPrices')}
              columns={[
                { title: t('plan.currency'), cell: (p) => p.currency },
                { title: t('catalog.type'), cell: (p) => (PRICE_TYPES[p.priceType] ? t(PRICE_TYPES[p.priceType]!) : words(p.priceType)) },
                { title: t('plan.charges'), cell: chargesOf },
                ...(canWrite ? [{ title: t('common.actions'), cell: (p: Price) => <RemovePrice identifier={identifier} currency={p.currency} onDone={view.reload} /> }] : []),
              ]}
            />
            {canWrite ? <PriceForm identifier={identifier} onDone={view.reload} /> : null}
          </Section>
          <Section title={t('plan.entitlements')}>
            <Table
              caption={t('plan.entitlementsCaption')}
              rows={rowsOf(view.data.entitlements)}
              rowKey={(e) => (typeof e.feature === 'string' ? e.feature : e.feature.identifier)}
              empty={t('plan.noEntitlements')}
              columns={[
                { title: t('customer.feature'), cell: (e) => (typeof e.feature === 'string' ? e.feature : e.feature.name) },
                { title: t('plan.allowance'), cell: (e) => allowanceOf(e.details.value) },
              ]}
            />
            {canWrite ? <EntitlementForm identifier={identifier} features={view.data.features.results} onDone={view.reload} /> : null}
          </Section>
          <Section title={t('product.files')}>
            <p className="hint">{t('plan.filesAbout')}</p>
            <FileTable caption={t('plan.filesCaption')} files={latest?.files ?? []} canWrite={canWrite} remove={(file) => api('DELETE', `/catalog/plans/${encodeURIComponent(identifier)}/file/${file.id}/`)} onDone={view.reload} />
            {canWrite ? (
              <UploadForm label={t('product.file')} submitLabel={t('plan.uploadFile')} hint={t('product.fileHint')} attach={(fileKey) => api('PATCH', `/catalog/plans/${encodeURIComponent(identifier)}/`, { body: { fileKeys: [fileKey] } })} onDone={view.reload} />
            ) : null}
          </Section>
        </>
      ) : null}
    </>
  );
}
