import { useState, type FormEvent } from 'react';
import { api, type Page } from '../api';
import { useAction, useResource } from '../data';
import { when } from '../format';
import { Confirmation } from '../ui/Confirmation';
import { ErrorNote, Field, Pager, Section, Select, StatusBadge, Table } from '../ui/kit';

interface ApiKey {
  prefix: string;
  kind: 'server' | 'client';
  name: string | null;
  environment: 'sandbox' | 'production';
  createdOn: string;
  revokedOn: string | null;
}
interface CreatedKey extends ApiKey {
  key: string;
}

const PAGE_SIZE = 20;

/** The whole key, right after it was made: shown this once (the server keeps only its hash), with a button that copies it. */
function NewKey({ created }: { created: CreatedKey }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(created.key).then(
      () => setCopied('Copied to the clipboard.'),
      () => setCopied('The browser would not copy it: select the key and copy it yourself.'),
    );
  return (
    <div className="note note-ok new-key">
      <p role="status">
        <strong>Copy the new {created.kind} key {created.prefix} now: you will not see it again.</strong> Billow keeps only its hash; if it is lost, make another
        key and revoke this one.
      </p>
      <code className="secret" data-testid="new-api-key">
        {created.key}
      </code>
      <div className="actions">
        <button type="button" className="secondary" onClick={() => void copy()}>
          Copy the key
        </button>
        <span aria-live="polite">{copied}</span>
      </div>
    </div>
  );
}

function NewKeyForm({ onDone }: { onDone(): void }) {
  const [kind, setKind] = useState<'server' | 'client'>('server');
  const [name, setName] = useState('');
  const create = useAction(() => api<CreatedKey>('POST', '/api-keys/', { body: { kind, name: name || undefined } }));
  return (
    <>
      <form
        className="row-form"
        aria-label="Create an API key"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          void create.perform().then((r) => {
            if (!r) return;
            setName('');
            onDone();
          });
        }}
      >
        <Select
          label="Key kind"
          value={kind}
          onChange={(e) => setKind(e.target.value === 'client' ? 'client' : 'server')}
          options={[
            ['server', 'Server key (secret: your backend)'],
            ['client', 'Client key (public: browsers, apps)'],
          ]}
        />
        <Field label="Key name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} hint="Optional: where the key is used, for example CI." />
        <button type="submit" disabled={create.busy}>
          Create key
        </button>
      </form>
      <ErrorNote error={create.error} />
      {create.result ? <NewKey created={create.result} /> : null}
    </>
  );
}

/** Revoking asks first: a revoked key is refused at once, everywhere, and cannot be restored. */
function RevokeKey({ apiKey, onDone }: { apiKey: ApiKey; onDone(): void }) {
  if (apiKey.revokedOn) return null;
  return (
    <Confirmation
      ask={
        <>
          Revoke<span className="visually-hidden"> {apiKey.prefix}</span>
        </>
      }
      question={`Revoke ${apiKey.prefix}?`}
      yes={`Yes, revoke ${apiKey.prefix}`}
      perform={() => api<ApiKey>('DELETE', `/api-keys/${apiKey.prefix}/`)}
      onDone={onDone}
    >
      Revoke {apiKey.prefix}? Every request with it is refused at once; this cannot be undone.
    </Confirmation>
  );
}

/** The environment's API keys (issue 29): listed by prefix, made with the secret shown once, revoked after a confirmation. */
export function ApiKeys({ canWrite }: { canWrite: boolean }) {
  const [page, setPage] = useState(1);
  const list = useResource(() => api<Page<ApiKey>>('GET', '/api-keys/', { query: { page, page_size: PAGE_SIZE } }), [page]);
  return (
    <Section title="API keys">
      <p>
        Keys of this environment. A server key can do everything in it, so keep it on your servers; a client key is for browsers and apps (entitlement checks,
        the product offering, checkouts).{canWrite ? '' : ' Owners and admins make and revoke keys.'}
      </p>
      <ErrorNote error={list.error} />
      <Table
        caption="API keys"
        rows={list.data?.results}
        rowKey={(k) => k.prefix}
        empty="No API keys in this environment."
        columns={[
          { title: 'Key', cell: (k) => <code>{k.prefix}…</code>, nowrap: true },
          { title: 'Name', cell: (k) => k.name ?? '—' },
          { title: 'Kind', cell: (k) => (k.kind === 'server' ? 'Server' : 'Client') },
          { title: 'Created', cell: (k) => when(k.createdOn), nowrap: true },
          {
            title: 'State',
            cell: (k) =>
              k.revokedOn ? (
                <>
                  <StatusBadge status="revoked" /> {when(k.revokedOn)}
                </>
              ) : (
                <StatusBadge status="active" />
              ),
          },
          { title: 'Actions', cell: (k) => (canWrite ? <RevokeKey apiKey={k} onDone={list.reload} /> : null) },
        ]}
      />
      {list.data ? <Pager label="API key pages" page={page} count={list.data.count} pageSize={PAGE_SIZE} onPage={setPage} /> : null}
      {canWrite ? <NewKeyForm onDone={list.reload} /> : null}
    </Section>
  );
}
