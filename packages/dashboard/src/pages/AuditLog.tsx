import { useState, type FormEvent } from 'react';
import type { AuditEntry } from '@billow/contract';
import { api } from '../api';
import { useResource } from '../data';
import { when } from '../format';
import { auditActionWords, auditPlaceWords, auditResourceWords, AUDIT_ACTION_OPTIONS } from '../audit';
import { ErrorNote, Field, Section, Select, Table } from '../ui/kit';

interface AuditPage {
  results: AuditEntry[];
  next: string | null;
}

/** What changed, for settings: the fields whose value differs between before and after. */
function changed(entry: AuditEntry): string {
  if (!entry.before && !entry.after) return '';
  if (!entry.before) return 'Created';
  if (!entry.after) return 'Deleted';
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
        <Select label="Action" value={action} onChange={(e) => setAction(e.target.value)} options={[['', 'Any change'], ...AUDIT_ACTION_OPTIONS]} />
        <Field label="Resource" value={resource} onChange={(e) => setResource(e.target.value)} hint="A kind of record (refunds, customers…) or a record's id" />
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
          { title: 'Who', cell: (e) => (e.actorType === 'api_key' ? 'An API key' : e.actorLabel) },
          { title: 'What', cell: (e) => auditActionWords(e.action) },
          {
            title: 'On',
            cell: (e) => (
              <>
                {auditResourceWords(e.resource)} {e.resourceId ? <code>{e.resourceId}</code> : null}
              </>
            ),
          },
          { title: 'Changed', cell: changed },
          { title: 'Where', cell: auditPlaceWords },
          { title: 'From', cell: (e) => e.clientAddress },
        ]}
      />
    </Section>
  );
}
