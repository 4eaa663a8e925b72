import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { Customer, TestClock, TestClockInvoice } from '@billow/contract';
import { api, type Page } from '../api';
import { useAction, useResource } from '../data';
import { day, money, when } from '../format';
import { ErrorNote, Field, Notice, Select, Section, StatusBadge, Table } from '../ui/kit';

function addMonth(iso: string): string {
  const date = new Date(iso);
  date.setUTCMonth(date.getUTCMonth() + 1);
  return date.toISOString();
}

const clockName = (clock: TestClock) => clock.name ?? clock.id;

function ClockRow({ clock, canWrite, open, onOpen, onDone }: { clock: TestClock; canWrite: boolean; open: boolean; onOpen(): void; onDone(): void }) {
  const advance = useAction(() => api<TestClock>('POST', `/test-clocks/${clock.id}/advance/`, { body: { frozenTime: addMonth(clock.frozenTime) } }));
  return (
    <div className="actions">
      {canWrite ? (
        <button type="button" className="secondary" disabled={advance.busy || clock.status !== 'ready'} onClick={() => void advance.perform().then((r) => r && onDone())}>
          Advance one month<span className="visually-hidden"> on {clockName(clock)}</span>
        </button>
      ) : null}
      <button type="button" className="link" aria-expanded={open} onClick={onOpen}>
        {open ? 'Hide what happened' : 'What happened'}
        <span className="visually-hidden"> on {clockName(clock)}</span>
      </button>
      <ErrorNote error={advance.error} />
    </div>
  );
}

/** What the clock's advances billed: the invoices of its customers, newest first (decision 0087). */
function ClockInvoices({ clock }: { clock: TestClock }) {
  const list = useResource(() => api<Page<TestClockInvoice>>('GET', `/test-clocks/${clock.id}/invoices/`, { query: { page_size: 20 } }), [clock.id, clock.frozenTime, clock.status]);
  return (
    <div className="clock-activity">
      <h3>What happened on {clockName(clock)}</h3>
      <ErrorNote error={list.error} />
      <Table
        caption={`Invoices on ${clockName(clock)}`}
        rows={list.data?.results}
        rowKey={(i) => i.id}
        empty="Nothing billed on this clock yet. Subscribe one of its customers, then advance it."
        columns={[
          { title: 'Issued', nowrap: true, cell: (i) => when(i.issuedOn) },
          { title: 'Customer', cell: (i) => <Link to={`/customers/${encodeURIComponent(i.customerId)}`}>{i.customerId}</Link> },
          { title: 'Period', nowrap: true, cell: (i) => (i.periodStart ? `${day(i.periodStart)} – ${day(i.periodEnd)}` : 'First payment') },
          { title: 'Total', numeric: true, cell: (i) => money(i.totalUnits, i.currency) },
          { title: 'Status', cell: (i) => <StatusBadge status={i.status === 'PAYMENT_FAILED' ? `failed after ${i.attemptCount} attempts` : i.status} /> },
        ]}
      />
    </div>
  );
}

function ClockChoice({ clocks, value, onChange }: { clocks: TestClock[]; value: string; onChange(id: string): void }) {
  return <Select label="Test clock" value={value} onChange={(e) => onChange(e.target.value)} options={clocks.map((c) => [c.id, clockName(c)])} />;
}

function NewClockCustomer({ clocks, onDone }: { clocks: TestClock[]; onDone(): void }) {
  const [clock, setClock] = useState('');
  const [customerId, setCustomerId] = useState('');
  const [email, setEmail] = useState('');
  const create = useAction(() => api('POST', '/customers/', { body: { customerId, email, testClockId: clock || clocks[0]?.id } }));
  return (
    <form
      className="row-form"
      aria-label="Add a customer on a test clock"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void create.perform().then((r) => r && onDone());
      }}
    >
      <ClockChoice clocks={clocks} value={clock} onChange={setClock} />
      <Field label="New customer id" required value={customerId} onChange={(e) => setCustomerId(e.target.value)} />
      <Field label="Their email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      <button type="submit" disabled={create.busy}>
        Add customer on the clock
      </button>
      <ErrorNote error={create.error} />
    </form>
  );
}

/** An existing customer without subscriptions moves onto a clock (decision 0087). */
function AttachCustomer({ clocks, onDone }: { clocks: TestClock[]; onDone(): void }) {
  const [clock, setClock] = useState('');
  const [customerId, setCustomerId] = useState('');
  const attach = useAction(() => api<Customer>('POST', `/test-clocks/${encodeURIComponent(clock || clocks[0]?.id || '')}/customers/`, { body: { customerId } }));
  return (
    <form
      className="row-form"
      aria-label="Attach an existing customer to a test clock"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void attach.perform().then((r) => {
          if (!r) return;
          setCustomerId('');
          onDone();
        });
      }}
    >
      <ClockChoice clocks={clocks} value={clock} onChange={setClock} />
      <Field label="Existing customer id" required value={customerId} onChange={(e) => setCustomerId(e.target.value)} hint="A customer of the sandbox without any subscription." />
      <button type="submit" disabled={attach.busy}>
        Attach to the clock
      </button>
      <ErrorNote error={attach.error} />
      {attach.result && !attach.error ? <Notice>{attach.result.customerId} now lives by the clock.</Notice> : null}
    </form>
  );
}

function NewClock({ onDone }: { onDone(): void }) {
  const [name, setName] = useState('');
  const create = useAction(() => api<TestClock>('POST', '/test-clocks/', { body: { name: name || null, frozenTime: new Date().toISOString() } }));
  return (
    <form
      className="row-form"
      aria-label="Create a test clock"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void create.perform().then((r) => r && onDone());
      }}
    >
      <Field label="Clock name" value={name} onChange={(e) => setName(e.target.value)} hint="Starts at the current time." />
      <button type="submit" disabled={create.busy}>
        Create test clock
      </button>
      <ErrorNote error={create.error} />
    </form>
  );
}

export function TestClocks({ canWrite }: { canWrite: boolean }) {
  const list = useResource(() => api<Page<TestClock>>('GET', '/test-clocks/', { query: { page_size: 20 } }), []);
  const [open, setOpen] = useState<string | null>(null);
  const clocks = list.data?.results ?? [];
  const opened = clocks.find((c) => c.id === open);
  return (
    <Section title="Test clocks" actions={<button type="button" className="secondary" onClick={list.reload}>Refresh</button>}>
      <ErrorNote error={list.error} />
      <Table
        caption="Test clocks"
        rows={list.data?.results}
        rowKey={(c) => c.id}
        empty="No test clocks. A test clock runs months of billing of its customers in seconds."
        columns={[
          { title: 'Name', cell: clockName },
          { title: 'Time', nowrap: true, cell: (c) => when(c.advancingTo ?? c.frozenTime) },
          { title: 'State', cell: (c) => <StatusBadge status={c.failure ? `failed: ${c.failure}` : c.status} /> },
          { title: 'Customers', numeric: true, cell: (c) => c.customerCount },
          { title: 'Actions', cell: (c) => <ClockRow clock={c} canWrite={canWrite} open={open === c.id} onOpen={() => setOpen(open === c.id ? null : c.id)} onDone={list.reload} /> },
        ]}
      />
      {opened ? <ClockInvoices clock={opened} /> : null}
      {canWrite ? <NewClock onDone={list.reload} /> : null}
      {canWrite && clocks.length > 0 ? (
        <>
          <NewClockCustomer clocks={clocks} onDone={list.reload} />
          <AttachCustomer clocks={clocks} onDone={list.reload} />
        </>
      ) : null}
    </Section>
  );
}
