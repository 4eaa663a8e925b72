import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, type Page } from '../api';
import { useAction, useResource } from '../data';
import { day, words } from '../format';
import { useCan } from '../session';
import { ErrorNote, Field, Loading, PageTitle, Section, Select, StatusBadge, Table } from '../ui/kit';
import type { Feature, Plan, Product } from './types';

interface Catalog {
  products: Page<Product>;
  features: Page<Feature>;
  plans: Page<Plan>;
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
      <PageTitle>Catalog</PageTitle>
      <ErrorNote error={catalog.error} />
      <Loading loading={catalog.loading && !data} />
      <Section title="Products">
        <Table
          caption="Products"
          rows={data?.products.results}
          rowKey={(p) => p.id}
          empty="No products yet."
          columns={[
            { title: 'Name', cell: (p) => <Link to={`/catalog/products/${encodeURIComponent(p.id)}`}>{p.name}</Link> },
            { title: 'Identifier', cell: (p) => <code>{p.identifier}</code> },
            { title: 'Tax code', cell: (p) => p.taxCode },
            { title: 'Created', cell: (p) => day(p.createdOn) },
          ]}
        />
      </Section>
      {canWrite ? (
        <CreateForm
          title="New product"
          submitLabel="Create product"
          fields={[
            { name: 'name', label: 'Product name', required: true },
            { name: 'identifier', label: 'Product identifier', hint: 'Lowercase letters, digits and dashes', required: true },
            { name: 'taxCode', label: 'Tax code', options: [['saas', 'Software as a service'], ['saas_business', 'Software for businesses'], ['software', 'Downloadable software'], ['ebook', 'E-book'], ['eservice', 'Electronic service'], ['training', 'Training']] },
          ]}
          send={(v) => api('POST', '/catalog/products/', { body: v })}
          onDone={catalog.reload}
        />
      ) : null}
      <Section title="Features">
        <Table
          caption="Features"
          rows={data?.features.results}
          rowKey={(f) => f.id}
          empty="No features yet."
          columns={[
            { title: 'Name', cell: (f) => f.name },
            { title: 'Identifier', cell: (f) => <code>{f.identifier}</code> },
            { title: 'Type', cell: (f) => words(f.featureType) },
          ]}
        />
      </Section>
      {canWrite ? (
        <CreateForm
          title="New feature"
          submitLabel="Create feature"
          fields={[
            { name: 'name', label: 'Feature name', required: true },
            { name: 'identifier', label: 'Feature identifier', required: true },
            { name: 'featureType', label: 'Feature type', options: [['BOOLEAN', 'On or off'], ['CUSTOMIZABLE', 'A number (e.g. seats)'], ['METER', 'Metered usage']] },
          ]}
          send={(v) => api('POST', '/catalog/features/', { body: v })}
          onDone={catalog.reload}
        />
      ) : null}
      <Section title="Plans">
        <Table
          caption="Plans"
          rows={data?.plans.results}
          rowKey={(p) => `${p.identifier}-${p.version}`}
          empty="No plans yet."
          columns={[
            { title: 'Name', cell: (p) => <Link to={`/catalog/plans/${encodeURIComponent(p.identifier)}`}>{p.name}</Link> },
            { title: 'Identifier', cell: (p) => <code>{p.identifier}</code> },
            { title: 'Product', cell: (p) => data?.products.results.find((x) => x.id === p.product || x.identifier === p.product)?.name ?? p.product },
            { title: 'Version', numeric: true, cell: (p) => p.version },
            { title: 'Status', cell: (p) => <StatusBadge status={p.status} /> },
          ]}
        />
      </Section>
      {canWrite && productOptions.length > 0 ? (
        <CreateForm
          title="New plan"
          submitLabel="Create plan"
          fields={[
            { name: 'name', label: 'Plan name', required: true },
            { name: 'identifier', label: 'Plan identifier', required: true },
            { name: 'product', label: 'Product of the plan', options: productOptions },
          ]}
          send={(v) => api('POST', '/catalog/plans/', { body: v })}
          onDone={catalog.reload}
        />
      ) : null}
    </>
  );
}
