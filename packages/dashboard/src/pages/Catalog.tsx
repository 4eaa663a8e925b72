import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, type Page } from '../api';
import { useAction, useResource } from '../data';
import { day, words } from '../format';
import { useCan } from '../session';
import { ErrorNote, Field, Loading, PageTitle, Section, Select, StatusBadge, Table } from '../ui/kit';
import { hasMessage, t, type MessageKey } from '../i18n/language';
import type { Feature, Plan, Product } from './types';

interface Catalog {
  products: Page<Product>;
  features: Page<Feature>;
  plans: Page<Plan>;
}

/** The tax codes a product may have, in the contract's order. */
const TAX_CODES = ['saas', 'saas_business', 'software', 'ebook', 'eservice', 'training'];

/** A product's tax code in words ("Software as a service"); one the dashboard does not know yet as words. */
export function taxCodeWords(code: string): string {
  const key = `taxCode.${code}`;
  return hasMessage(key) ? t(key) : words(code);
}

const FEATURE_TYPES: Record<string, MessageKey | undefined> = { BOOLEAN: 'catalog.typeBoolean', CUSTOMIZABLE: 'catalog.typeCustomizable', METER: 'catalog.typeMeter' };

/** A feature's type in words ("On or off"); a type the dashboard does not know yet as words. */
const featureTypeWords = (type: string) => {
  const key = FEATURE_TYPES[type];
  return key ? t(key) : words(type);
};

/** A feature's name, changed in place: its identifier and type never change, so plans and subscribers are untouched. */
function RenameFeature({ feature, onDone }: { feature: Feature; onDone(): void }) {
  const [name, setName] = useState<string | null>(null);
  const rename = useAction((value: string) => api<Feature>('PATCH', `/catalog/features/${encodeURIComponent(feature.identifier)}/`, { body: { name: value } }));
  if (name === null) {
    return (
      <button type="button" className="secondary" onClick={() => setName(feature.name)}>
        {t('catalog.rename')}
        <span className="visually-hidden"> {feature.name}</span>
      </button>
    );
  }
  async function submit(event: FormEvent) {
    event.preventDefault();
    if ((await rename.perform(name ?? '')) === undefined) return;
    setName(null);
    onDone();
  }
  return (
    <form className="row-form" aria-label={t('catalog.renameFeature', { name: feature.name })} onSubmit={submit}>
      <Field label={t('catalog.featureName')} required value={name} onChange={(e) => setName(e.target.value)} />
      <button type="submit" disabled={rename.busy}>
        {t('catalog.saveName')}
      </button>
      <button type="button" className="secondary" onClick={() => setName(null)}>
        {t('common.cancel')}
      </button>
      <ErrorNote error={rename.error} />
    </form>
  );
}

async function loadCatalog(): Promise<Catalog> {
  const [products, features, plans] = await Promise.all([
    api<Page<Product>>('GET', '/catalog/products/', { query: { page_size: 100 } }),
    api<Page<Feature>>('GET', '/catalog/features/', { query: { page_size: 100 } }),
    api<Page<Plan>>('GET', '/catalog/plans/', { query: { page_size: 100 } }),
  ]);
  return { products, features, plans };
}

/** A small form whose fields are the request's fields; the API checks them, and its detail shows under the button. */
function CreateForm({ title, submitLabel, fields, send, onDone }: { title: string; submitLabel: string; fields: Array<{ name: string; label: string; hint?: string; required?: boolean; options?: Array<[string, string]> }>; send(values: Record<string, string>): Promise<unknown>; onDone(): void }) {
  const initial = Object.fromEntries(fields.map((f) => [f.name, f.options?.[0]?.[0] ?? '']));
  const [values, setValues] = useState<Record<string, string>>(initial);
  const action = useAction(send);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if ((await action.perform(values)) !== undefined) {
      setValues(initial);
      onDone();
    }
  }
  return (
    <Section title={title}>
      <form className="row-form" onSubmit={submit}>
        {fields.map((f) =>
          f.options ? (
            <Select key={f.name} label={f.label} options={f.options} value={values[f.name]} onChange={(e) => setValues({ ...values, [f.name]: e.target.value })} />
          ) : (
            <Field key={f.name} label={f.label} hint={f.hint} required={f.required} value={values[f.name]} onChange={(e) => setValues({ ...values, [f.name]: e.target.value })} />
          ),
        )}
        <button type="submit" disabled={action.busy}>
          {submitLabel}
        </button>
      </form>
      <ErrorNote error={action.error} />
    </Section>
  );
}

export function CatalogPage() {
  const catalog = useResource(loadCatalog, []);
  const canWrite = useCan('catalog');
  const data = catalog.data;
  const productOptions: Array<[string, string]> = (data?.products.results ?? []).map((p) => [p.identifier, p.name]);
  return (
    <>
      <PageTitle>{t('catalog.title')}</PageTitle>
      <ErrorNote error={catalog.error} />
      <Loading loading={catalog.loading && !data} />
      <Section title={t('catalog.products')}>
        <Table
          caption={t('catalog.products')}
          rows={data?.products.results}
          rowKey={(p) => p.id}
          empty={t('catalog.noProducts')}
          columns={[
            { title: t('common.name'), cell: (p) => <Link to={`/catalog/products/${encodeURIComponent(p.id)}`}>{p.name}</Link> },
            { title: t('catalog.identifier'), cell: (p) => <code>{p.identifier}</code> },
            { title: t('catalog.taxCode'), cell: (p) => taxCodeWords(p.taxCode) },
            { title: t('orders.created'), cell: (p) => day(p.createdOn) },
          ]}
        />
      </Section>
      {canWrite ? (
        <CreateForm
          title={t('catalog.newProduct')}
          submitLabel={t('catalog.createProduct')}
          fields={[
            { name: 'name', label: t('catalog.productName'), required: true },
            { name: 'identifier', label: t('catalog.productIdentifier'), hint: t('catalog.identifierHint'), required: true },
            { name: 'taxCode', label: t('catalog.taxCode'), options: TAX_CODES.map((code): [string, string] => [code, taxCodeWords(code)]) },
          ]}
          send={(v) => api('POST', '/catalog/products/', { body: v })}
          onDone={catalog.reload}
        />
      ) : null}
      <Section title={t('catalog.features')}>
        <Table
          caption={t('catalog.features')}
          rows={data?.features.results}
          rowKey={(f) => f.id}
          empty={t('catalog.noFeatures')}
          columns={[
            { title: t('common.name'), cell: (f) => f.name },
            { title: t('catalog.identifier'), cell: (f) => <code>{f.identifier}</code> },
            { title: t('catalog.type'), cell: (f) => featureTypeWords(f.featureType) },
            ...(canWrite ? [{ title: t('common.actions'), cell: (f: Feature) => <RenameFeature feature={f} onDone={catalog.reload} /> }] : []),
          ]}
        />
      </Section>
      {canWrite ? (
        <CreateForm
          title={t('catalog.newFeature')}
          submitLabel={t('catalog.createFeature')}
          fields={[
            { name: 'name', label: t('catalog.featureName'), required: true },
            { name: 'identifier', label: t('catalog.featureIdentifier'), required: true },
            {
              name: 'featureType',
              label: t('catalog.featureType'),
              options: [
                ['BOOLEAN', t('catalog.typeBoolean')],
                ['CUSTOMIZABLE', t('catalog.typeCustomizable')],
                ['METER', t('catalog.typeMeter')],
              ],
            },
          ]}
          send={(v) => api('POST', '/catalog/features/', { body: v })}
          onDone={catalog.reload}
        />
      ) : null}
      <Section title={t('catalog.plans')}>
        <Table
          caption={t('catalog.plans')}
          rows={data?.plans.results}
          rowKey={(p) => `${p.identifier}-${p.version}`}
          empty={t('catalog.noPlans')}
          columns={[
            { title: t('common.name'), cell: (p) => <Link to={`/catalog/plans/${encodeURIComponent(p.identifier)}`}>{p.name}</Link> },
            { title: t('catalog.identifier'), cell: (p) => <code>{p.identifier}</code> },
            { title: t('selling.product'), cell: (p) => data?.products.results.find((x) => x.id === p.product || x.identifier === p.product)?.name ?? p.product },
            { title: t('catalog.version'), numeric: true, cell: (p) => p.version },
            { title: t('common.status'), cell: (p) => <StatusBadge status={p.status} /> },
          ]}
        />
      </Section>
      {canWrite && productOptions.length > 0 ? (
        <CreateForm
          title={t('catalog.newPlan')}
          submitLabel={t('catalog.createPlan')}
          fields={[
            { name: 'name', label: t('catalog.planName'), required: true },
            { name: 'identifier', label: t('catalog.planIdentifier'), required: true },
            { name: 'product', label: t('catalog.planProduct'), options: productOptions },
          ]}
          send={(v) => api('POST', '/catalog/plans/', { body: v })}
          onDone={catalog.reload}
        />
      ) : null}
    </>
  );
}
