/**
 * Payments (issue 29): every movement of money, newest first — payments, refunds, and what
 * comes out of each (fee, tax) before the payout — searchable and filtered by outcome.
 */
import { Link } from 'react-router';
import { api, type Page } from '../api';
import { useResource } from '../data';
import { day, money, when } from '../format';
import { ErrorNote, Pager, SearchForm, Select, StatusBadge, Table } from '../ui/kit';
import type { Transaction } from './types';

const PAGE_SIZE = 20;

const KIND_WORDS: Record<string, string> = {
  CHARGE: 'Payment',
  REFUND: 'Refund',
  CHARGEBACK: 'Dispute',
  CHARGEBACK_REVERSAL: 'Dispute won back',
  CREDIT: 'Credit',
  PAYOUT: 'Payout',
  ADJUSTMENT: 'Adjustment',
};

const OUTCOMES: Array<[string, string]> = [
  ['', 'Every outcome'],
  ['success', 'Succeeded'],
  ['failure', 'Failed'],
  ['pending', 'Pending'],
];

const OUTCOME_WORDS: Record<Transaction['status'], string> = { success: 'Succeeded', failure: 'Failed', pending: 'Pending' };

function card(t: Transaction): string {
  if (!t.paymentMethodName && !t.last4) return '—';
  const name = t.paymentMethodName ? t.paymentMethodName.charAt(0).toUpperCase() + t.paymentMethodName.slice(1) : 'Card';
  return t.last4 ? `${name} ending ${t.last4}` : name;
}

export interface PaymentsQuery {
  page: number;
  search: string;
  status: string;
}

/** The payments tab of Orders and invoices: the list, with its search and its outcome filter. */
export function Payments({ query, go }: { query: PaymentsQuery; go(next: Record<string, string>): void }) {
  const list = useResource(
    () =>
      api<Page<Transaction>>('GET', '/transaction/', {
        query: { page: query.page, page_size: PAGE_SIZE, count: 'capped', ...(query.search ? { search: query.search } : {}), ...(query.status ? { status: query.status } : {}) },
      }),
    [query.page, query.search, query.status],
  );
  return (
    <>
      <SearchForm label="Search payments (email, customer id, order id or card)" initial={query.search} onSearch={(text) => go({ search: text, page: '' })}>
        <Select label="Outcome" options={OUTCOMES} value={query.status} onChange={(e) => go({ status: e.target.value, page: '' })} />
      </SearchForm>
      <ErrorNote error={list.error} />
      <Table
        caption="Payments and refunds"
        rows={list.data?.results}
        rowKey={(t) => t.id}
        empty={query.search || query.status ? 'No payment matches.' : 'No payments yet.'}
        columns={[
          { title: 'When', cell: (t) => when(t.createdOn) },
          { title: 'Kind', cell: (t) => KIND_WORDS[t.transactionType] ?? 'Other' },
          { title: 'Order', cell: (t) => <Link to={`/orders/${encodeURIComponent(t.order.id)}`}>{t.order.id}</Link> },
          { title: 'Customer', cell: (t) => t.order.customer.email ?? t.order.customer.customerId },
          { title: 'Paid with', cell: card },
          { title: 'Amount', numeric: true, cell: (t) => money(t.amountTotalUnits, t.currency) },
          { title: 'Fee', numeric: true, cell: (t) => money(t.morFeeUnits, t.currency) },
          { title: 'Tax', numeric: true, cell: (t) => money(t.collectedTaxUnits, t.currency) },
          { title: 'Net', numeric: true, cell: (t) => money(t.netPayoutUnits, t.currency) },
          { title: 'Outcome', cell: (t) => <StatusBadge status={OUTCOME_WORDS[t.status]} /> },
          { title: 'Available', cell: (t) => (t.availableOn ? day(t.availableOn) : '—') },
        ]}
      />
      {list.data ? <Pager label="Payment pages" page={query.page} count={list.data.count} capped={list.data.countCapped} pageSize={PAGE_SIZE} onPage={(p) => go({ page: String(p) })} /> : null}
    </>
  );
}
