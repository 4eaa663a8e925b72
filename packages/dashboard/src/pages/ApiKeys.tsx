import { useState, type FormEvent } from 'react';
import { api, type Page } from '../api';
import { useAction, useResource } from '../data';
import { when } from '../format';
import { Confirmation } from '../ui/Confirmation';
import { t } from '../i18n/language';
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
      () => setCopied(t('keys.copied')),
      () => setCopied(t('keys.notCopied')),
    );
  return (
    <div className="note note-ok new-key">
      <p role="status">
        <strong>{t('keys.copyNow', { kind: created.kind, prefix: created.prefix })}</strong> {t('keys.onlyHash')}
      </p>
      <code className="secret" data-testid="new-api-key">
        {created.key}
      </code>
      <div className="actions">
        <button type="button" className="secondary" onClick={() => void copy()}>
          {t('keys.copy')}
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
        aria-label={t('keys.form')}
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
          label={t('keys.kind')}
          value={kind}
          onChange={(e) => setKind(e.target.value === 'client' ? 'client' : 'server')}
          options={[
            ['server', t('keys.serverOption')],
            ['client', t('keys.clientOption')],
          ]}
        />
        <Field label={t('keys.name')} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} hint={t('keys.nameHint')} />
        <button type="submit" disabled={create.busy}>
          {t('keys.create')}
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
          {t('keys.revoke')}<span className="visually-hidden"> {apiKey.prefix}</span>
        </>
      }
      question={t('keys.revokeQuestion', { prefix: apiKey.prefix })}
      yes={t('keys.revokeYes', { prefix: apiKey.prefix })}
      perform={() => api<ApiKey>('DELETE', `/api-keys/${apiKey.prefix}/`)}
      onDone={onDone}
    >
      {t('keys.revokeExplained', { prefix: apiKey.prefix })}
    </Confirmation>
  );
}

/** The environment's API keys (issue 29): listed by prefix, made with the secret shown once, revoked after a confirmation. */
export function ApiKeys({ canWrite }: { canWrite: boolean }) {
  const [page, setPage] = useState(1);
  const list = useResource(() => api<Page<ApiKey>>('GET', '/api-keys/', { query: { page, page_size: PAGE_SIZE } }), [page]);
  return (
    <Section title={t('keys.title')}>
      <p>
        {t('keys.about')}
        {canWrite ? '' : ` ${t('keys.ownersOnly')}`}
      </p>
      <ErrorNote error={list.error} />
      <Table
        caption={t('keys.title')}
        rows={list.data?.results}
        rowKey={(k) => k.prefix}
        empty={t('keys.empty')}
        columns={[
          { title: t('licenses.key'), cell: (k) => <code>{k.prefix}…</code>, nowrap: true },
          { title: t('common.name'), cell: (k) => k.name ?? '—' },
          { title: t('payments.kind'), cell: (k) => (k.kind === 'server' ? t('keys.server') : t('keys.client')) },
          { title: t('orders.created'), cell: (k) => when(k.createdOn), nowrap: true },
          {
            title: t('licenses.state'),
            cell: (k) =>
              k.revokedOn ? (
                <>
                  <StatusBadge status="revoked" /> {when(k.revokedOn)}
                </>
              ) : (
                <StatusBadge status="active" />
              ),
          },
          { title: t('common.actions'), cell: (k) => (canWrite ? <RevokeKey apiKey={k} onDone={list.reload} /> : null) },
        ]}
      />
      {list.data ? <Pager label={t('keys.pages')} page={page} count={list.data.count} pageSize={PAGE_SIZE} onPage={setPage} /> : null}
      {canWrite ? <NewKeyForm onDone={list.reload} /> : null}
    </Section>
  );
}
