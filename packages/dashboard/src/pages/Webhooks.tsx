import { useState, type FormEvent } from 'react';
import { api, type Page } from '../api';
import { useAction, useResource } from '../data';
import { when } from '../format';
import { eventTypeOptions, eventLabel, eventTypesLabel } from '../events';
import { t } from '../i18n/language';
import { Checkbox, ErrorNote, Field, Notice, Pager, RefreshButton, Section, StatusBadge, Table } from '../ui/kit';

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
      <p>
        {label} {t('webhooks.onceSecret')}
      </p>
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
        aria-label={t('webhooks.addForm')}
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
        <Field label={t('webhooks.url')} type="url" required value={url} onChange={(e) => setUrl(e.target.value)} hint={t('webhooks.urlHint')} />
        <Field label={t('product.description')} value={description} onChange={(e) => setDescription(e.target.value)} />
        <button type="submit" disabled={create.busy}>
          {t('webhooks.add')}
        </button>
      </form>
      <ErrorNote error={create.error} />
      {create.result?.secret ? <OnceSecret label={t('webhooks.signingSecretOf', { url: create.result.url })} secret={create.result.secret} /> : null}
    </>
  );
}

function EndpointActions({ endpoint, editing, onEdit, onDone }: { endpoint: Endpoint; editing: boolean; onEdit(): void; onDone(): void }) {
  const rotate = useAction(() => api<Endpoint>('POST', `/webhook/endpoints/${endpoint.id}/rotate-secret/`, { body: {} }));
  const remove = useAction(() => api('DELETE', `/webhook/endpoints/${endpoint.id}/`));
  return (
    <div className="actions">
      <button type="button" className="secondary" aria-expanded={editing} onClick={onEdit}>
        {t('webhooks.edit')}<span className="visually-hidden"> {endpoint.url}</span>
      </button>
      <button type="button" className="secondary" disabled={rotate.busy} onClick={() => void rotate.perform()}>
        {t('webhooks.rotate')}<span className="visually-hidden"> {t('webhooks.of', { url: endpoint.url })}</span>
      </button>
      <button type="button" className="danger" disabled={remove.busy} onClick={() => void remove.perform().then((r) => r !== undefined && onDone())}>
        {t('webhooks.delete')}<span className="visually-hidden"> {endpoint.url}</span>
      </button>
      <ErrorNote error={rotate.error ?? remove.error} />
      {rotate.result?.secret ? <OnceSecret label={t('webhooks.newSecret')} secret={rotate.result.secret} /> : null}
    </div>
  );
}

/** The event types an endpoint receives, chosen from their labels: every event, or some. */
function EventTypesChoice({ chosen, onChange }: { chosen: string[]; onChange(types: string[]): void }) {
  const every = chosen.includes('*');
  const toggle = (type: string, on: boolean) => onChange(on ? [...chosen.filter((x) => x !== '*'), type] : chosen.filter((x) => x !== type));
  return (
    <fieldset className="event-types">
      <legend>{t('webhooks.eventsItReceives')}</legend>
      <Checkbox label={t('webhooks.everyEvent')} checked={every} onChange={(on) => onChange(on ? ['*'] : [])} />
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
      aria-label={t('webhooks.editForm', { url: endpoint.url })}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void save.perform().then((r) => r && onDone());
      }}
    >
      <h3>
        {t('webhooks.edit')} <code>{endpoint.url}</code>
      </h3>
      <Field label={t('webhooks.newUrl')} type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />
      <EventTypesChoice chosen={types} onChange={setTypes} />
      <button type="submit" disabled={save.busy || types.length === 0}>
        {t('webhooks.save')}
      </button>{' '}
      <button type="button" className="secondary" onClick={onCancel}>
        {t('common.cancel')}
      </button>
      {types.length === 0 ? <p className="hint">{t('webhooks.chooseOne')}</p> : null}
      <ErrorNote error={save.error} />
    </form>
  );
}

function Endpoints({ canWrite }: { canWrite: boolean }) {
  const list = useResource(() => api<Page<Endpoint>>('GET', '/webhook/endpoints/', { query: { page_size: 50 } }), []);
  const [editing, setEditing] = useState<string | null>(null);
  const edited = list.data?.results.find((e) => e.id === editing);
  return (
    <Section title={t('webhooks.endpoints')}>
      <ErrorNote error={list.error} />
      <Table
        caption={t('webhooks.endpoints')}
        rows={list.data?.results}
        rowKey={(e) => e.id}
        empty={t('webhooks.noEndpoints')}
        columns={[
          { title: 'URL', cell: (e) => <code>{e.url}</code> },
          { title: t('webhooks.events'), cell: (e) => eventTypesLabel(e.eventTypes) },
          { title: t('licenses.state'), cell: (e) => <StatusBadge status={e.enabled ? 'enabled' : (e.disabledReason ?? 'disabled')} /> },
          {
            title: t('common.actions'),
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
            {t('webhooks.deliveryLine', { event: eventLabel(d.eventType), url: d.url, answer: d.statusCode ?? t('webhooks.noAnswer'), ms: d.durationMs ?? '—' })} {d.error ? `(${d.error})` : ''}
          </p>
          <h3>{t('webhooks.payload')}</h3>
          <pre tabIndex={0}>{d.requestBody ?? ''}</pre>
          <h3>{t('webhooks.response')}</h3>
          <pre tabIndex={0}>{d.responseExcerpt ?? ''}</pre>
          {canWrite ? (
            <button type="button" disabled={resend.busy} onClick={() => void resend.perform()}>
              {t('webhooks.resend')}
            </button>
          ) : null}
          <ErrorNote error={resend.error} />
          {resend.result ? <Notice>{t('webhooks.queued', { count: resend.result.queued })}</Notice> : null}
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
    <Section title={t('webhooks.deliveries')} actions={<RefreshButton onClick={list.reload} />}>
      <ErrorNote error={list.error} />
      <Table
        caption={t('webhooks.deliveries')}
        rows={list.data?.results}
        rowKey={(d) => d.id}
        empty={t('webhooks.noDeliveries')}
        columns={[
          { title: t('webhooks.event'), cell: (d) => eventLabel(d.eventType) },
          {
            title: t('webhooks.answer'),
            cell: (d) => (
              <StatusBadge status={d.isSuccess ? 'succeeded' : 'failed'} text={(d.isSuccess ? t('webhooks.succeeded', { code: d.statusCode ?? '' }) : t('webhooks.failed', { code: d.statusCode ?? '' })).trim()} />
            ),
          },
          { title: t('webhooks.attempts'), numeric: true, cell: (d) => d.retryCount + 1 },
          { title: t('webhooks.lastAttempt'), cell: (d) => when(d.lastAttempt ?? d.createdOn) },
          {
            title: t('webhooks.details'),
            cell: (d) => (
              <button type="button" className="link" aria-expanded={open === d.id} onClick={() => setOpen(open === d.id ? null : d.id)}>
                {open === d.id ? t('webhooks.hide') : t('webhooks.show')}
                <span className="visually-hidden"> {t('webhooks.deliveryOf', { event: eventLabel(d.eventType) })}</span>
              </button>
            ),
          },
        ]}
      />
      {list.data ? <Pager label={t('webhooks.pages')} page={page} count={list.data.count} pageSize={10} onPage={setPage} /> : null}
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
