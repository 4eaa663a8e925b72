import { useState, type FormEvent } from 'react';
import type { AuditEntry } from '@billow/contract';
import { api } from '../api';
import { useResource } from '../data';
import { when } from '../format';
import { auditActionOptions, auditActionWords, auditPlaceWords, auditResourceWords } from '../audit';
import { t } from '../i18n/language';
import { ErrorNote, Field, Section, Select, Table } from '../ui/kit';

interface AuditPage {
  results: AuditEntry[];
  next: string | null;
}

/** What changed, for settings: the fields whose value differs between before and after. */
function changed(entry: AuditEntry): string {
  if (!entry.before && !entry.after) return '';
  if (!entry.before) return t('audit.created');
  if (!entry.after) return t('audit.deleted');
  const keys = new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})]);
  const fields = [...keys].filter((k) => JSON.stringify(entry.before?.[k]) !== JSON.stringify(entry.after?.[k]));
  // A field's name in words: brandColor → brand color.
  return fields.map((k) => k.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase()).join(', ');
}

/** The audit log (read only: no operation changes it), filtered by the server. */
export function AuditLog() {
  const [action, setAction] = useState('');
  const [resource, setResource] = useState('');
  const [filters, setFilters] = useState({ action: '', resource: '' });
  const log = useResource(() => api<AuditPage>('GET', '/audit-log/', { query: { ...filters, limit: 50 } }), [filters.action, filters.resource]);
  return (
    <Section title={t('audit.title')}>
      <form
        role="search"
        className="row-form"
        aria-label={t('audit.filter')}
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          setFilters({ action, resource });
        }}
      >
        <Select label={t('audit.action')} value={action} onChange={(e) => setAction(e.target.value)} options={[['', t('audit.anyChange')], ...auditActionOptions()]} />
        <Field label={t('audit.resource')} value={resource} onChange={(e) => setResource(e.target.value)} hint={t('audit.resourceHint')} />
        <button type="submit">{t('subscriptions.filter')}</button>
      </form>
      <ErrorNote error={log.error} />
      <Table
        caption={t('audit.title')}
        rows={log.data?.results}
        rowKey={(e) => e.id}
        empty={t('audit.empty')}
        columns={[
          { title: t('common.when'), nowrap: true, cell: (e) => when(e.createdOn) },
          { title: t('audit.who'), cell: (e) => (e.actorType === 'api_key' ? t('audit.anApiKey') : e.actorLabel) },
          { title: t('timeline.what'), cell: (e) => auditActionWords(e.action) },
          {
            title: t('audit.on'),
            cell: (e) => (
              <>
                {auditResourceWords(e.resource)} {e.resourceId ? <code>{e.resourceId}</code> : null}
              </>
            ),
          },
          { title: t('audit.changed'), cell: changed },
          { title: t('audit.where'), cell: auditPlaceWords },
          { title: t('audit.from'), cell: (e) => e.clientAddress },
        ]}
      />
    </Section>
  );
}
