import { useState, type FormEvent } from 'react';
import { api, ApiError, type Page } from '../api';
import { useAction, useResource } from '../data';
import { when } from '../format';
import { useCan } from '../session';
import { ApiKeys } from './ApiKeys';
import { Checkbox, ErrorNote, Field, Notice, PageTitle, Pager, Section, StatusBadge, Table } from '../ui/kit';

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  secret?: string;
  createdOn: string;
}
interface Delivery {
  id: string;
  eventId: string;
  endpoint: string;
  eventType: string;
  statusCode: number | null;
  isSuccess: boolean;
  retryCount: number;
  lastAttempt: string | null;
  createdOn: string;
}
interface DeliveryDetail extends Delivery {
  url: string;
  requestBody: string | null;
  error: string | null;
  responseExcerpt: string | null;
  durationMs: number | null;
}
interface TestClock {
  id: string;
  name: string | null;
  frozenTime: string;
  status: string;
  advancingTo: string | null;
  failure: string | null;
  customerCount: number;
}
interface Provider {
  provider: 'stripe' | 'sandbox';
  mode: string;
  secretKeyHint: string | null;
  webhookPath: string | null;
}

/** A secret shown once, right after it was made: the page keeps it only until the next reload. */
function OnceSecret({ label, secret }: { label: string; secret: string }) {
  return (
    <div className="note note-ok" role="status">
      <p>{label} It is shown only this once: copy it now.</p>
      <code className="secret">{secret}</code>
    </div>
  );
}

function NewEndpoint({ onDone }: { onDone(): void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const create = useAction(() => api<Endpoint>('POST', '/webhook/endpoints/', { body: { url, description: description || undefined, eventTypes: ['*'] } }));
  return (
    <>
      <form
        className="row-form"
        aria-label="Add a webhook endpoint"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          void create.perform().then((r) => {
            if (!r) return;
            setUrl('');
            setDescription('');
            onDone();
          });
        }}
      >
        <Field label="Endpoint URL" type="url" required value={url} onChange={(e) => setUrl(e.target.value)} hint="Receives every event type; https in production." />
        <Field label="Description" value={description} onChange={(e) => setDescription(e.target.value)} />
        <button type="submit" disabled={create.busy}>
          Add endpoint
        </button>
      </form>
      <ErrorNote error={create.error} />
      {create.result?.secret ? <OnceSecret label={`Signing secret of ${create.result.url}.`} secret={create.result.secret} /> : null}
    </>
  );
}

function EndpointActions({ endpoint, onDone }: { endpoint: Endpoint; onDone(): void }) {
  const rotate = useAction(() => api<Endpoint>('POST', `/webhook/endpoints/${endpoint.id}/rotate-secret/`, { body: {} }));
  const remove = useAction(() => api('DELETE', `/webhook/endpoints/${endpoint.id}/`));
  return (
    <div className="actions">
      <button type="button" className="secondary" disabled={rotate.busy} onClick={() => void rotate.perform()}>
        Rotate secret<span className="visually-hidden"> of {endpoint.url}</span>
      </button>
      <button type="button" className="danger" disabled={remove.busy} onClick={() => void remove.perform().then((r) => r !== undefined && onDone())}>
        Delete<span className="visually-hidden"> {endpoint.url}</span>
      </button>
      <ErrorNote error={rotate.error ?? remove.error} />
      {rotate.result?.secret ? <OnceSecret label="The new signing secret." secret={rotate.result.secret} /> : null}
    </div>
  );
}

function Endpoints({ canWrite }: { canWrite: boolean }) {
  const list = useResource(() => api<Page<Endpoint>>('GET', '/webhook/endpoints/', { query: { page_size: 50 } }), []);
  return (
    <Section title="Webhook endpoints">
      <ErrorNote error={list.error} />
      <Table
        caption="Webhook endpoints"
        rows={list.data?.results}
        rowKey={(e) => e.id}
        empty="No webhook endpoints yet."
        columns={[
          { title: 'URL', cell: (e) => <code>{e.url}</code> },
          { title: 'Events', cell: (e) => e.eventTypes.join(', ') },
          { title: 'State', cell: (e) => <StatusBadge status={e.enabled ? 'enabled' : (e.disabledReason ?? 'disabled')} /> },
          { title: 'Actions', cell: (e) => (canWrite ? <EndpointActions endpoint={e} onDone={list.reload} /> : null) },
        ]}
      />
      {canWrite ? <NewEndpoint onDone={list.reload} /> : null}
    </Section>
  );
}

function DeliveryView({ id, canWrite }: { id: string; canWrite: boolean }) {
  const detail = useResource(() => api<DeliveryDetail>('GET', `/webhook/logs/${id}/`), [id]);
  const resend = useAction(() => api<{ queued: number }>('POST', `/webhook/logs/${id}/resend/`, { body: {} }));
  const d = detail.data;
  return (
    <div className="delivery">
      <ErrorNote error={detail.error} />
      {d ? (
        <>
          <p>
            {d.eventType} to <code>{d.url}</code>: {d.statusCode ?? 'no answer'} in {d.durationMs ?? '—'} ms {d.error ? `(${d.error})` : ''}
          </p>
          <h3>Payload</h3>
          <pre tabIndex={0}>{d.requestBody ?? ''}</pre>
          <h3>Response</h3>
          <pre tabIndex={0}>{d.responseExcerpt ?? ''}</pre>
          {canWrite ? (
            <button type="button" disabled={resend.busy} onClick={() => void resend.perform()}>
              Resend this event
            </button>
          ) : null}
          <ErrorNote error={resend.error} />
          {resend.result ? <Notice>Queued {resend.result.queued} delivery; it goes out within a second or so.</Notice> : null}
        </>
      ) : null}
    </div>
  );
}

function Deliveries({ canWrite }: { canWrite: boolean }) {
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const list = useResource(() => api<Page<Delivery>>('GET', '/webhook/logs/', { query: { page, page_size: 10 } }), [page]);
  return (
    <Section title="Webhook deliveries" actions={<button type="button" className="secondary" onClick={list.reload}>Refresh</button>}>
      <ErrorNote error={list.error} />
      <Table
        caption="Webhook deliveries"
        rows={list.data?.results}
        rowKey={(d) => d.id}
        empty="No deliveries yet."
        columns={[
          { title: 'Event', cell: (d) => d.eventType },
          { title: 'Answer', cell: (d) => <StatusBadge status={d.isSuccess ? `succeeded ${d.statusCode}` : `failed ${d.statusCode ?? ''}`} /> },
          { title: 'Attempts', numeric: true, cell: (d) => d.retryCount + 1 },
          { title: 'Last attempt', cell: (d) => when(d.lastAttempt ?? d.createdOn) },
          {
            title: 'Details',
            cell: (d) => (
              <button type="button" className="link" aria-expanded={open === d.id} onClick={() => setOpen(open === d.id ? null : d.id)}>
                {open === d.id ? 'Hide' : 'Show'}
                <span className="visually-hidden"> delivery of {d.eventType}</span>
              </button>
            ),
          },
        ]}
      />
      {list.data ? <Pager label="Delivery pages" page={page} count={list.data.count} pageSize={10} onPage={setPage} /> : null}
      {open ? <DeliveryView id={open} canWrite={canWrite} /> : null}
    </Section>
  );
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

function TestClocks({ canWrite }: { canWrite: boolean }) {
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

function PaymentProvider({ canWrite }: { canWrite: boolean }) {
  const provider = useResource(async () => {
    try {
      return await api<Provider>('GET', '/payment-provider/');
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  }, []);
  const [secretKey, setSecretKey] = useState('');
  const [webhookSecret, setWebhookSecret] = useState('');
  const [replace, setReplace] = useState(false);
  const save = useAction(() => api<Provider>('PUT', '/payment-provider/', { body: { provider: 'stripe', stripeSecretKey: secretKey, stripeWebhookSecret: webhookSecret } }));
  const p = provider.data;
  return (
    <Section title="Payment provider">
      <ErrorNote error={provider.error} />
      {p ? (
        <p>
          {p.provider === 'stripe' ? `Stripe (${p.mode} mode), key ${p.secretKeyHint ?? ''}` : 'The built-in test provider (test cards, no real money).'}
          {p.webhookPath ? (
            <>
              {' '}Stripe's webhook goes to <code>{`${window.location.origin}${p.webhookPath}`}</code>.
            </>
          ) : null}
        </p>
      ) : provider.data === null ? (
        <p>No payment provider: production purchases are refused until Stripe's keys are set.</p>
      ) : null}
      {canWrite ? <Checkbox label="Set Stripe's keys" checked={replace} onChange={setReplace} /> : null}
      {canWrite && replace ? (
        <form
          className="row-form"
          aria-label="Stripe keys"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            void save.perform().then((r) => r && provider.reload());
          }}
        >
          <Field label="Stripe secret key" type="password" autoComplete="off" required value={secretKey} onChange={(e) => setSecretKey(e.target.value)} />
          <Field label="Stripe webhook signing secret" type="password" autoComplete="off" required value={webhookSecret} onChange={(e) => setWebhookSecret(e.target.value)} />
          <button type="submit" disabled={save.busy}>
            Save Stripe keys
          </button>
          <ErrorNote error={save.error} />
        </form>
      ) : null}
    </Section>
  );
}

export function Developers() {
  const canWrite = useCan('developers');
  const canSetProvider = useCan('settings');
  const canManageKeys = useCan('keys');
  return (
    <>
      <PageTitle>Developers</PageTitle>
      <ApiKeys canWrite={canManageKeys} />
      <Endpoints canWrite={canWrite} />
      <Deliveries canWrite={canWrite} />
      <TestClocks canWrite={canWrite} />
      <PaymentProvider canWrite={canSetProvider} />
    </>
  );
}
