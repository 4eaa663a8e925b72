import { useState } from 'react';
import { Link } from 'react-router';
import { api, type Page } from '../api';
import { useResource } from '../data';
import { actorWords, eventLabel, objectWord } from '../events';
import { day, when } from '../format';
import { Badge, ErrorNote, Pager, Section, Table } from '../ui/kit';
import type { CustomerEvent, OrderLicense } from '@billow/contract';
import type { Order, Subscription } from './types';

export type License = OrderLicense;

const PAGE_SIZE = 10;
const LINKED: Record<string, string> = { order: '/orders/', subscription: '/subscriptions/' };

function EventObject({ event }: { event: CustomerEvent }) {
  const word = objectWord(event.objectType);
  const base = event.objectType ? LINKED[event.objectType] : undefined;
  if (!event.objectId || event.objectType === 'customer') return <>{word}</>;
  if (!base) return <>{word}</>;
  return (
    <Link to={`${base}${encodeURIComponent(event.objectId)}`}>
      {word}
      <span className="visually-hidden"> of the event of {when(event.createdOn)}</span>
    </Link>
  );
}

/** The customer's events (GET /customers/{id}/events/, decision 0085), newest first, in words. */
export function Timeline({ customerId }: { customerId: string }) {
  const [page, setPage] = useState(1);
  const list = useResource(() => api<Page<CustomerEvent>>('GET', `/customers/${encodeURIComponent(customerId)}/events/`, { query: { page, page_size: PAGE_SIZE } }), [customerId, page]);
  return (
    <Section title="Timeline">
      <ErrorNote error={list.error} />
      <Table
        caption="What happened to this customer, newest first"
        rows={list.data?.results}
        rowKey={(e) => e.id}
        empty="Nothing has happened yet."
        columns={[
          { title: 'When', cell: (e) => when(e.createdOn) },
          { title: 'What', cell: (e) => eventLabel(e.type) },
          { title: 'About', cell: (e) => <EventObject event={e} /> },
          { title: 'By', cell: (e) => actorWords(e.actor) },
        ]}
      />
      {list.data ? <Pager label="Timeline pages" page={page} count={list.data.count} pageSize={PAGE_SIZE} onPage={setPage} /> : null}
    </Section>
  );
}

type Sold = { license?: License[] };

/** The keys of the customer's orders and subscriptions, each once (a renewal's order carries its subscription's key). */
export function licensesOf(orders: Array<Order & Sold>, subscriptions: Array<Subscription & Sold>): License[] {
  const keys = new Map<string, License>();
  for (const row of [...subscriptions, ...orders]) for (const key of row.license ?? []) keys.set(key.id, key);
  return [...keys.values()];
}

const activations = (l: License) => (l.activationLimit === null ? `${l.activationUsage} (no limit)` : `${l.activationUsage} of ${l.activationLimit}`);

export function Licenses({ licenses }: { licenses: License[] }) {
  return (
    <Section title="License keys">
      <Table
        caption="License keys of this customer"
        rows={licenses}
        rowKey={(l) => l.id}
        empty="No license keys."
        columns={[
          { title: 'Key', cell: (l) => <code>{l.licenseKey}</code> },
          { title: 'Machines active', numeric: true, cell: activations },
          { title: 'First activated', nowrap: true, cell: (l) => day(l.activatedOn) },
          { title: 'Expires', nowrap: true, cell: (l) => (l.expiresOn ? day(l.expiresOn) : 'Never') },
          { title: 'State', cell: (l) => (l.enabled ? <Badge tone="good">Usable</Badge> : <Badge tone="bad">Disabled</Badge>) },
        ]}
      />
    </Section>
  );
}
