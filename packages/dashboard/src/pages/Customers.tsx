import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, type Page } from '../api';
import { useAction, useResource } from '../data';
import { day } from '../format';
import { useCan } from '../session';
import { ErrorNote, Field, Loading, PageTitle, Pager, Section, Select, Table } from '../ui/kit';
import type { Customer } from './types';

const PAGE_SIZE = 20;
/** The server sorts (a Billow extension, docs/dashboard.md "Lists and search"): field and direction. */
const SORTS: Array<[string, string]> = [['', 'Newest first'], ['createdOn:asc', 'Oldest first'], ['name:asc', 'Name'], ['email:asc', 'Email'], ['customerId:asc', 'Customer id']];

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
    <Section title="Add a customer">
      <form className="row-form" onSubmit={submit}>
        <Field label="Customer id" required value={customerId} onChange={(e) => setCustomerId(e.target.value)} hint="Your own id for them, e.g. cus_42" />
        <Field label="Email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field label="Name" value={name} onChange={(e) => setName(e.target.value)} />
        <button type="submit" disabled={create.busy}>
          Add customer
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
      <PageTitle>Customers</PageTitle>
      <form role="search" className="row-form" onSubmit={submit}>
        <Field label="Search by email, name or customer id" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} />
        <button type="submit">Search</button>
        <Select label="Sort by" options={SORTS} value={sort} onChange={(e) => go({ sort: e.target.value, page: '' })} />
      </form>
      <ErrorNote error={list.error} />
      <Loading loading={list.loading && !list.data} />
      <Table
        caption="Customers"
        rows={list.data?.results}
        rowKey={(c) => c.id}
        empty={search ? `No customer matches “${search}”.` : 'No customers yet.'}
        columns={[
          { title: 'Customer', cell: (c) => <Link to={`/customers/${encodeURIComponent(c.customerId)}`}>{c.email ?? c.customerId}</Link> },
          { title: 'Name', cell: (c) => c.name ?? '—' },
          { title: 'Customer id', cell: (c) => <code>{c.customerId}</code> },
          { title: 'Country', cell: (c) => c.billingAddress?.country ?? '—' },
          { title: 'Since', cell: (c) => day(c.createdOn) },
        ]}
      />
      {list.data ? <Pager label="Customer pages" page={page} count={list.data.count} capped={list.data.countCapped} pageSize={PAGE_SIZE} onPage={(p) => go({ page: String(p) })} /> : null}
      {canWrite ? <NewCustomer onCreated={list.reload} /> : null}
    </>
  );
}
