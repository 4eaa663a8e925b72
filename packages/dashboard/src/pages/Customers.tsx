import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, type Page } from '../api';
import { useAction, useResource } from '../data';
import { countryName, day } from '../format';
import { useCan } from '../session';
import { ErrorNote, Field, Loading, PageTitle, Pager, Section, Select, Table } from '../ui/kit';
import { t } from '../i18n/language';
import type { Customer } from './types';

const PAGE_SIZE = 20;
/** The server sorts (a Billow extension, docs/dashboard.md "Lists and search"): field and direction. */
const sorts = (): Array<[string, string]> => [
  ['', t('customers.newestFirst')],
  ['createdOn:asc', t('customers.oldestFirst')],
  ['name:asc', t('common.name')],
  ['email:asc', t('common.email')],
  ['customerId:asc', t('common.customerId')],
];

function NewCustomer({ onCreated }: { onCreated(): void }) {
  const [customerId, setCustomerId] = useState('');
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const create = useAction((body: object) => api<Customer>('POST', '/customers/', { body }));
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (await create.perform({ customerId, email, name: name || undefined })) {
      setCustomerId('');
      setEmail('');
      setName('');
      onCreated();
    }
  }
  return (
    <Section title={t('customers.add')}>
      <form className="row-form" onSubmit={submit}>
        <Field label={t('common.customerId')} required value={customerId} onChange={(e) => setCustomerId(e.target.value)} hint={t('customers.idHint')} />
        <Field label={t('common.email')} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field label={t('common.name')} value={name} onChange={(e) => setName(e.target.value)} />
        <button type="submit" disabled={create.busy}>
          {t('customers.addButton')}
        </button>
      </form>
      <ErrorNote error={create.error} />
    </Section>
  );
}

/** Customers, searched and paged by the server; the search and page live in the URL. */
export function Customers() {
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const page = Number(params.get('page') ?? '1') || 1;
  const sort = params.get('sort') ?? '';
  const [typed, setTyped] = useState(search);
  const [field, order] = sort.split(':');
  const canWrite = useCan('customers');
  const list = useResource(() => api<Page<Customer>>('GET', '/customers/', { query: { search, page, page_size: PAGE_SIZE, sort: field, order, count: 'capped' } }), [search, page, sort]);
  const go = (next: Record<string, string>) => setParams(Object.fromEntries(Object.entries({ search, sort, ...next }).filter(([, v]) => v)));

  function submit(event: FormEvent) {
    event.preventDefault();
    go({ search: typed, page: '' });
  }

  return (
    <>
      <PageTitle>{t('customers.title')}</PageTitle>
      <form role="search" className="row-form" onSubmit={submit}>
        <Field label={t('customers.searchLabel')} type="search" value={typed} onChange={(e) => setTyped(e.target.value)} />
        <button type="submit">{t('common.search')}</button>
        <Select label={t('customers.sortBy')} options={sorts()} value={sort} onChange={(e) => go({ sort: e.target.value, page: '' })} />
      </form>
      <ErrorNote error={list.error} />
      <Loading loading={list.loading && !list.data} />
      <Table
        caption={t('customers.title')}
        rows={list.data?.results}
        rowKey={(c) => c.id}
        empty={search ? t('customers.noMatch', { search }) : t('customers.none')}
        columns={[
          { title: t('common.customer'), cell: (c) => <Link to={`/customers/${encodeURIComponent(c.customerId)}`}>{c.email ?? c.customerId}</Link> },
          { title: t('common.name'), cell: (c) => c.name ?? '—' },
          { title: t('common.customerId'), cell: (c) => <code>{c.customerId}</code> },
          { title: t('customers.country'), cell: (c) => countryName(c.billingAddress?.country) },
          { title: t('common.since'), cell: (c) => day(c.createdOn) },
        ]}
      />
      {list.data ? <Pager label={t('customers.pages')} page={page} count={list.data.count} capped={list.data.countCapped} pageSize={PAGE_SIZE} onPage={(p) => go({ page: String(p) })} /> : null}
      {canWrite ? <NewCustomer onCreated={list.reload} /> : null}
    </>
  );
}
