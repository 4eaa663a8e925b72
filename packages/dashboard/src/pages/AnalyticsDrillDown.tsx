/** The customers behind a figure of the Analytics page: the movements of one kind in a range, newest first, paged by the API. */
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { MrrMovementKind, MrrMovementList } from '@billow/contract';
import { api, download } from '../api';
import { useResource } from '../data';
import { day, money } from '../format';
import { DownloadButton, ErrorNote, Pager, Section, Table } from '../ui/kit';
import { kindLabel } from './analytics-words';

export interface DrillDown {
  kind: MrrMovementKind;
  start: string;
  end: string;
  /** Every currency when not given (a converted figure's drill-down). */
  currency?: string | undefined;
  /** One plan's or product's figures (decision 0106); the whole business's when empty. */
  only: { plan?: string; product?: string };
  /** What the figure was, in words: "New, Nov 2026". */
  title: string;
}

const PAGE_SIZE = 10;

export function AnalyticsDrillDown({ drill, onClose }: { drill: DrillDown; onClose(): void }) {
  const [page, setPage] = useState(1);
  const list = useResource(
    () => api<MrrMovementList>('GET', '/analytics/mrr/movements/', { query: { start: drill.start, end: drill.end, kind: drill.kind, currency: drill.currency, ...drill.only, page, page_size: PAGE_SIZE } }),
    [drill.start, drill.end, drill.kind, drill.currency, drill.only.plan, drill.only.product, page],
  );
  const title = `Customers behind ${drill.title}`;
  // Opened by a bar or a button far above it: the list takes the focus, so that the keyboard and a screen reader land on it.
  const box = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    box.current?.focus();
    box.current?.scrollIntoView?.({ block: 'nearest' });
  }, []);
  return (
    <div ref={box} tabIndex={-1} className="drill-down">
      <Section
        title={title}
        actions={
          <div className="actions">
            <DownloadButton
              label="Download CSV"
              hidden={`of the customers behind ${drill.title}`}
              run={() => download('/analytics/mrr/movements/', { start: drill.start, end: drill.end, kind: drill.kind, currency: drill.currency, ...drill.only, format: 'csv' }, `mrr-${drill.kind}-${drill.start}-${drill.end}.csv`)}
            />
            <button type="button" className="secondary" onClick={onClose}>
              Close<span className="visually-hidden"> the customers behind {drill.title}</span>
            </button>
          </div>
        }
      >
        <ErrorNote error={list.error} />
        <Table
          caption={title}
          rows={list.data?.results}
          rowKey={(m) => `${m.subscriptionId} ${m.at} ${m.kind}`}
          empty="No customer moved this way in that time."
          columns={[
            {
              title: 'Customer',
              cell: (m) => (
                <>
                  <Link to={`/customers/${encodeURIComponent(m.customer.customerId)}`}>{m.customer.name ?? m.customer.email ?? m.customer.customerId}</Link>
                  {m.customer.name && m.customer.email ? <span className="muted"> {m.customer.email}</span> : null}
                </>
              ),
            },
            { title: 'Movement', cell: (m) => kindLabel(m.kind) },
            { title: 'Change of MRR', numeric: true, nowrap: true, cell: (m) => money(m.amountUnits, m.currency) },
            { title: 'MRR after', numeric: true, nowrap: true, cell: (m) => money(m.customerMrrAfterUnits, m.currency) },
            { title: 'Day', nowrap: true, cell: (m) => day(m.day) },
          ]}
        />
        {list.data ? <Pager label={`Pages of ${title}`} page={page} count={list.data.count} pageSize={PAGE_SIZE} onPage={setPage} /> : null}
        <p className="hint">Each change is rounded on its own; the chart rounds their exact sum, so the two can differ by the currency's smallest unit.</p>
      </Section>
    </div>
  );
}
