import { useState, type FormEvent } from 'react';
import { api, type Page } from '../api';
import { useResource } from '../data';
import { when } from '../format';
import { ErrorNote, Field, Section, Table } from '../ui/kit';

interface AuditEntry {
  id: string;
  actor?: { type?: string; id?: string; email?: string | null; name?: string | null } | null;
  actorId?: string | null;
  actorType?: string | null;
  action: string;
  resource?: string | null;
  resourceId?: string | null;
  ipAddress?: string | null;
  environment?: string | null;
  before?: unknown;
  after?: unknown;
  createdOn?: string;
  createdAt?: string;
}

interface Cursor<T> {
  results: T[];
  next?: string | null;
  nextCursor?: string | null;
}

function actorOf(entry: AuditEntry): string {
  return entry.actor?.email ?? entry.actor?.name ?? entry.actor?.id ?? entry.actorId ?? entry.actorType ?? '—';
}

/** The audit log (read only: no operation changes it), filtered by the server. */
export function AuditLog() {
  const [action, setAction] = useState('');
  const [resource, setResource] = useState('');
  const [filters, setFilters] = useState({ action: '', resource: '' });
  const log = useResource(() => api<Cursor<AuditEntry> | Page<AuditEntry>>('GET', '/audit-log/', { query: { ...filters, limit: 50 } }), [filters.action, filters.resource]);
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
          { title: 'When', cell: (e) => when(e.createdOn ?? e.createdAt) },
          { title: 'Who', cell: actorOf },
          { title: 'What', cell: (e) => <code>{e.action}</code> },
          { title: 'On', cell: (e) => [e.resource, e.resourceId].filter(Boolean).join(' ') || '—' },
          { title: 'From', cell: (e) => e.ipAddress ?? '—' },
        ]}
      />
    </Section>
  );
}
