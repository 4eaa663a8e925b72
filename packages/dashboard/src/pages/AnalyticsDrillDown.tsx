/** The customers behind a figure of the Analytics page: the movements of one kind in a range, newest first, paged by the API. */
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { MrrMovementKind, MrrMovementList } from '@billow/contract';
import { api, download } from '../api';
import { useResource } from '../data';
import { day, money } from '../format';
import { t } from '../i18n/language';
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
  const title = t('drill.title', { what: drill.title });
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
              label={t('analytics.downloadCsv')}
              hidden={t('drill.ofCustomers', { what: drill.title })}
              run={() => download('/analytics/mrr/movements/', { start: drill.start, end: drill.end, kind: drill.kind, currency: drill.currency, ...drill.only, format: 'csv' }, `mrr-${drill.kind}-${drill.start}-${drill.end}.csv`)}
            />
            <button type="button" className="secondary" onClick={onClose}>
              {t('drill.close')}<span className="visually-hidden"> {t('drill.closeHidden', { what: drill.title })}</span>
            </button>
          </div>
        }
      >
        <ErrorNote error={list.error} />
        <Table
          caption={title}
          rows={list.data?.results}
          rowKey={(m) => `${m.subscriptionId} ${m.at} ${m.kind}`}
          empty={t('drill.empty')}
          columns={[
            {
              title: t('common.customer'),
              cell: (m) => (
                <>
                  <Link to={`/customers/${encodeURIComponent(m.customer.customerId)}`}>{m.customer.name ?? m.customer.email ?? m.customer.customerId}</Link>
                  {m.customer.name && m.customer.email ? <span className="muted"> {m.customer.email}</span> : null}
                </>
              ),
            },
            { title: t('drill.movement'), cell: (m) => kindLabel(m.kind) },
            { title: t('drill.change'), numeric: true, nowrap: true, cell: (m) => money(m.amountUnits, m.currency) },
            { title: t('drill.after'), numeric: true, nowrap: true, cell: (m) => money(m.customerMrrAfterUnits, m.currency) },
            { title: t('drill.day'), nowrap: true, cell: (m) => day(m.day) },
          ]}
        />
        {list.data ? <Pager label={t('drill.pages', { title })} page={page} count={list.data.count} pageSize={PAGE_SIZE} onPage={setPage} /> : null}
        <p className="hint">{t('drill.rounding')}</p>
      </Section>
    </div>
  );
}
