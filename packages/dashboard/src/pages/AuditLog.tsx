import { useState, type FormEvent } from 'react';
import type { AuditEntry } from '@billow/contract';
import { api } from '../api';
import { useResource } from '../data';
import { when } from '../format';
import { ErrorNote, Field, Section, Table } from '../ui/kit';

interface AuditPage {
  results: AuditEntry[];
  next: string | null;
}

/** What changed, for settings: the fields whose value differs between before and after. */
function changed(entry: AuditEntry): string {
  if (!entry.before && !entry.after) return '';
  if (!entry.before) return 'created';
  if (!entry.after) return 'deleted';
  const keys = new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})]);
  return [...keys].filter((k) => JSON.stringify(entry.before?.[k]) !== JSON.stringify(entry.after?.[k])).join(', ');
}

/** The audit log (read only: no operation changes it), filtered by the server. */
export function AuditLog() {
  const [action, setAction] = useState('');
  const [resource, setResource] = useState('');
  const [filters, setFilters] = useState({ action: '', resource: '' });
  const log = useResource(() => api<AuditPage>('GET', '/audit-log/', { query: { ...filters, limit: 50 } }), [filters.action, filters.resource]);
  return (
    <Section title="Audit log">
      <form
        role="search"
        className="row-form"
        aria-label="Filter the audit log"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          setFilters({ action, resource });
        }}
      >
        <Field label="Action" value={action} onChange={(e) => setAction(e.target.value)} hint="e.g. refund.created" />
        <Field label="Resource" value={resource} onChange={(e) => setResource(e.target.value)} />
        <button type="submit">Filter</button>
      </form>
      <ErrorNote error={log.error} />
      <Table
        caption="Audit log"
        rows={log.data?.results}
        rowKey={(e) => e.id}
        empty="Nothing recorded yet."
        columns={[
          { title: 'When', nowrap: true, cell: (e) => when(e.createdOn) },
          { title: 'Who', cell: (e) => `${e.actorLabel}${e.actorType === 'api_key' ? ' (API key)' : ''}` },
          { title: 'What', cell: (e) => <code>{e.action}</code> },
          { title: 'On', cell: (e) => [e.resource, e.resourceId].filter(Boolean).join(' ') },
          { title: 'Changed', cell: changed },
          { title: 'Where', cell: (e) => e.environment ?? 'organization' },
          { title: 'From', cell: (e) => e.clientAddress },
        ]}
      />
    </Section>
  );
}
