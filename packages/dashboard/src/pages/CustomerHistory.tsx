import { useState } from 'react';
import { Link } from 'react-router';
import { api, type Page } from '../api';
import { useResource } from '../data';
import { actorWords, eventLabel, objectWord } from '../events';
import { day, when } from '../format';
import { Confirmation } from '../ui/Confirmation';
import { Badge, ErrorNote, Pager, Section, Table } from '../ui/kit';
import type { CustomerEvent, CustomerLicense, CustomerLicenseInstance, CustomerLicenseList, LicenseInstanceFreed } from '@billow/contract';

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

const activations = (l: CustomerLicense) => (l.activationLimit === null ? `${l.instances.length} (no limit)` : `${l.instances.length} of ${l.activationLimit}`);

/** Frees one machine of a key (a Billow extension): the activation is given back, the key stays as it is. */
function FreeMachine({ customerId, license, instance, onDone }: { customerId: string; license: CustomerLicense; instance: CustomerLicenseInstance; onDone(): void }) {
  const path = `/customers/${encodeURIComponent(customerId)}/licenses/${license.id}/instances/${instance.id}/deactivate/`;
  const name = instance.name || 'this machine';
  return (
    <Confirmation
      ask={
        <>
          Free this machine<span className="visually-hidden"> ({name})</span>
        </>
      }
      question={`Free ${name}?`}
      yes={`Yes, free ${name}`}
      perform={() => api<LicenseInstanceFreed>('POST', path)}
      onDone={onDone}
    >
      Free {name}? The key stops working there at its next check, and the activation can be used on another machine.
    </Confirmation>
  );
}

function Machines({ customerId, license, canWrite, onChange }: { customerId: string; license: CustomerLicense; canWrite: boolean; onChange(): void }) {
  if (license.instances.length === 0) return <>None</>;
  return (
    <ul className="plain">
      {license.instances.map((i) => (
        <li key={i.id}>
          {i.name} <span className="muted">since {day(i.activatedOn)}{i.lastValidatedOn ? `, last checked ${day(i.lastValidatedOn)}` : ''}</span>
          {canWrite ? <FreeMachine customerId={customerId} license={license} instance={i} onDone={onChange} /> : null}
        </li>
      ))}
    </ul>
  );
}

/** The customer's license keys and the machines each is active on (GET /customers/{id}/licenses/, decision 0085); members who may change customers free a machine. */
export function Licenses({ customerId, canWrite }: { customerId: string; canWrite: boolean }) {
  const list = useResource(() => api<CustomerLicenseList>('GET', `/customers/${encodeURIComponent(customerId)}/licenses/`), [customerId]);
  return (
    <Section title="License keys">
      <ErrorNote error={list.error} />
      <Table
        caption="License keys of this customer"
        rows={list.data?.licenses}
        rowKey={(l) => l.id}
        empty="No license keys."
        columns={[
          { title: 'Key', cell: (l) => <code>{l.licenseKey}</code> },
          { title: 'Plan', cell: (l) => l.planName },
          { title: 'Machines active', numeric: true, cell: activations },
          { title: 'Machines', cell: (l) => <Machines customerId={customerId} license={l} canWrite={canWrite} onChange={list.reload} /> },
          { title: 'Expires', nowrap: true, cell: (l) => (l.expiresOn ? day(l.expiresOn) : 'Never') },
          { title: 'State', cell: (l) => (l.enabled ? <Badge tone="good">Usable</Badge> : <Badge tone="bad">Disabled</Badge>) },
        ]}
      />
    </Section>
  );
}
