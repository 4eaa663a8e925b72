import { useState, type FormEvent } from 'react';
import { api, type Page } from '../api';
import { useAction, useResource } from '../data';
import { when } from '../format';
import { ErrorNote, Field, Section, StatusBadge, Table } from '../ui/kit';

interface TestClock {
  id: string;
  name: string | null;
  frozenTime: string;
  status: string;
  advancingTo: string | null;
  failure: string | null;
  customerCount: number;
}
function addMonth(iso: string): string {
  const date = new Date(iso);
  date.setUTCMonth(date.getUTCMonth() + 1);
  return date.toISOString();
}

function ClockRow({ clock, onDone }: { clock: TestClock; onDone(): void }) {
  const advance = useAction(() => api<TestClock>('POST', `/test-clocks/${clock.id}/advance/`, { body: { frozenTime: addMonth(clock.frozenTime) } }));
  return (
    <>
      <button type="button" className="secondary" disabled={advance.busy || clock.status !== 'ready'} onClick={() => void advance.perform().then((r) => r && onDone())}>
        Advance one month<span className="visually-hidden"> on {clock.name ?? clock.id}</span>
      </button>
      <ErrorNote error={advance.error} />
    </>
  );
}

function NewClockCustomer({ clocks, onDone }: { clocks: TestClock[]; onDone(): void }) {
  const [clock, setClock] = useState('');
  const [customerId, setCustomerId] = useState('');
  const [email, setEmail] = useState('');
  const create = useAction(() => api('POST', '/customers/', { body: { customerId, email, testClockId: clock || clocks[0]?.id } }));
  if (clocks.length === 0) return null;
  return (
    <form
      className="row-form"
      aria-label="Add a customer on a test clock"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void create.perform().then((r) => r && onDone());
      }}
    >
      <div className="field">
        <label htmlFor="clock-of-customer">Test clock</label>
        <select id="clock-of-customer" value={clock} onChange={(e) => setClock(e.target.value)}>
          {clocks.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name ?? c.id}
            </option>
          ))}
        </select>
      </div>
      <Field label="New customer id" required value={customerId} onChange={(e) => setCustomerId(e.target.value)} />
      <Field label="Their email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      <button type="submit" disabled={create.busy}>
        Add customer on the clock
      </button>
      <ErrorNote error={create.error} />
    </form>
  );
}

export function TestClocks({ canWrite }: { canWrite: boolean }) {
  const list = useResource(() => api<Page<TestClock>>('GET', '/test-clocks/', { query: { page_size: 20 } }), []);
  const [name, setName] = useState('');
  const create = useAction(() => api<TestClock>('POST', '/test-clocks/', { body: { name: name || null, frozenTime: new Date().toISOString() } }));
  return (
    <Section title="Test clocks" actions={<button type="button" className="secondary" onClick={list.reload}>Refresh</button>}>
      <ErrorNote error={list.error} />
      <Table
        caption="Test clocks"
        rows={list.data?.results}
        rowKey={(c) => c.id}
        empty="No test clocks. A test clock runs months of billing of its customers in seconds."
        columns={[
          { title: 'Name', cell: (c) => c.name ?? c.id },
          { title: 'Time', cell: (c) => when(c.advancingTo ?? c.frozenTime) },
          { title: 'State', cell: (c) => <StatusBadge status={c.failure ? `failed: ${c.failure}` : c.status} /> },
          { title: 'Customers', numeric: true, cell: (c) => c.customerCount },
          { title: 'Actions', cell: (c) => (canWrite ? <ClockRow clock={c} onDone={list.reload} /> : null) },
        ]}
      />
      {canWrite ? (
        <>
          <form
            className="row-form"
            aria-label="Create a test clock"
            onSubmit={(event: FormEvent) => {
              event.preventDefault();
              void create.perform().then((r) => r && list.reload());
            }}
          >
            <Field label="Clock name" value={name} onChange={(e) => setName(e.target.value)} hint="Starts at the current time." />
            <button type="submit" disabled={create.busy}>
              Create test clock
            </button>
          </form>
          <ErrorNote error={create.error} />
          <NewClockCustomer clocks={list.data?.results ?? []} onDone={list.reload} />
        </>
      ) : null}
    </Section>
  );
}

