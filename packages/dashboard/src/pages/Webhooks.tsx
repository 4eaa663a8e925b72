import { useState, type FormEvent } from 'react';
import { api, type Page } from '../api';
import { useAction, useResource } from '../data';
import { when } from '../format';
import { eventTypeOptions, eventLabel, eventTypesLabel } from '../events';
import { Checkbox, ErrorNote, Field, Notice, Pager, Section, StatusBadge, Table } from '../ui/kit';

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

function EndpointActions({ endpoint, editing, onEdit, onDone }: { endpoint: Endpoint; editing: boolean; onEdit(): void; onDone(): void }) {
  const rotate = useAction(() => api<Endpoint>('POST', `/webhook/endpoints/${endpoint.id}/rotate-secret/`, { body: {} }));
  const remove = useAction(() => api('DELETE', `/webhook/endpoints/${endpoint.id}/`));
  return (
    <div className="actions">
      <button type="button" className="secondary" aria-expanded={editing} onClick={onEdit}>
        Edit<span className="visually-hidden"> {endpoint.url}</span>
      </button>
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

/** The event types an endpoint receives, chosen from their labels: every event, or some. */
function EventTypesChoice({ chosen, onChange }: { chosen: string[]; onChange(types: string[]): void }) {
  const every = chosen.includes('*');
  const toggle = (type: string, on: boolean) => onChange(on ? [...chosen.filter((t) => t !== '*'), type] : chosen.filter((t) => t !== type));
  return (
    <fieldset className="event-types">
      <legend>Events it receives</legend>
      <Checkbox label="Every event, new kinds too" checked={every} onChange={(on) => onChange(on ? ['*'] : [])} />
      {every
        ? null
        : eventTypeOptions().map(([type, label]) => <Checkbox key={type} label={label} checked={chosen.includes(type)} onChange={(on) => toggle(type, on)} />)}
    </fieldset>
  );
}

/** Changes an endpoint's URL and the event types it receives (PATCH: only these two fields). */
function EndpointEditor({ endpoint, onDone, onCancel }: { endpoint: Endpoint; onDone(): void; onCancel(): void }) {
  const [url, setUrl] = useState(endpoint.url);
  const [types, setTypes] = useState<string[]>(endpoint.eventTypes);
  const save = useAction(() => api<Endpoint>('PATCH', `/webhook/endpoints/${endpoint.id}/`, { body: { url, eventTypes: types } }));
  return (
    <form
      className="endpoint-editor"
      aria-label={`Edit the endpoint ${endpoint.url}`}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void save.perform().then((r) => r && onDone());
      }}
    >
      <h3>
        Edit <code>{endpoint.url}</code>
      </h3>
      <Field label="New endpoint URL" type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />
      <EventTypesChoice chosen={types} onChange={setTypes} />
      <button type="submit" disabled={save.busy || types.length === 0}>
        Save endpoint
      </button>{' '}
      <button type="button" className="secondary" onClick={onCancel}>
        Cancel
      </button>
      {types.length === 0 ? <p className="hint">Choose at least one event.</p> : null}
      <ErrorNote error={save.error} />
    </form>
  );
}

function Endpoints({ canWrite }: { canWrite: boolean }) {
  const list = useResource(() => api<Page<Endpoint>>('GET', '/webhook/endpoints/', { query: { page_size: 50 } }), []);
  const [editing, setEditing] = useState<string | null>(null);
  const edited = list.data?.results.find((e) => e.id === editing);
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
          { title: 'Events', cell: (e) => eventTypesLabel(e.eventTypes) },
          { title: 'State', cell: (e) => <StatusBadge status={e.enabled ? 'enabled' : (e.disabledReason ?? 'disabled')} /> },
          {
            title: 'Actions',
            cell: (e) => (canWrite ? <EndpointActions endpoint={e} editing={editing === e.id} onEdit={() => setEditing(editing === e.id ? null : e.id)} onDone={list.reload} /> : null),
          },
        ]}
      />
      {canWrite && edited ? (
        <EndpointEditor
          key={edited.id}
          endpoint={edited}
          onCancel={() => setEditing(null)}
          onDone={() => {
            setEditing(null);
            list.reload();
          }}
        />
      ) : null}
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
            {eventLabel(d.eventType)} to <code>{d.url}</code>: {d.statusCode ?? 'no answer'} in {d.durationMs ?? '—'} ms {d.error ? `(${d.error})` : ''}
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
          { title: 'Event', cell: (d) => eventLabel(d.eventType) },
          { title: 'Answer', cell: (d) => <StatusBadge status={d.isSuccess ? `succeeded ${d.statusCode}` : `failed ${d.statusCode ?? ''}`} /> },
          { title: 'Attempts', numeric: true, cell: (d) => d.retryCount + 1 },
          { title: 'Last attempt', cell: (d) => when(d.lastAttempt ?? d.createdOn) },
          {
            title: 'Details',
            cell: (d) => (
              <button type="button" className="link" aria-expanded={open === d.id} onClick={() => setOpen(open === d.id ? null : d.id)}>
                {open === d.id ? 'Hide' : 'Show'}
                <span className="visually-hidden"> delivery of {eventLabel(d.eventType)}</span>
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


/** Webhook endpoints and the log of their deliveries. */
export function Webhooks({ canWrite }: { canWrite: boolean }) {
  return (
    <>
      <Endpoints canWrite={canWrite} />
      <Deliveries canWrite={canWrite} />
    </>
  );
}
