/**
 * Payments (issue 29): every movement of money, newest first — payments, refunds, and what
 * comes out of each (fee, tax) before the payout — searchable and filtered by outcome.
 */
import { Link } from 'react-router';
import { api, type Page } from '../api';
import { useResource } from '../data';
import { cardBrand, day, money, when, words } from '../format';
import { ErrorNote, Pager, SearchForm, Select, StatusBadge, Table } from '../ui/kit';
import { t, type MessageKey } from '../i18n/language';
import type { Transaction } from './types';

const PAGE_SIZE = 20;

const KIND_WORDS: Record<string, MessageKey> = {
  CHARGE: 'payments.kindCharge',
  REFUND: 'payments.kindRefund',
  CHARGEBACK: 'payments.kindChargeback',
  CHARGEBACK_REVERSAL: 'payments.kindChargebackReversal',
  CREDIT: 'payments.kindCredit',
  PAYOUT: 'payments.kindPayout',
  ADJUSTMENT: 'payments.kindAdjustment',
};

const outcomes = (): Array<[string, string]> => [['', t('payments.everyOutcome')], ...(['success', 'failure', 'pending'] as const).map((value): [string, string] => [value, words(value)])];

function card(row: Transaction): string {
  if (!row.paymentMethodName && !row.last4) return '—';
  const name = cardBrand(row.paymentMethodName);
  return row.last4 ? t('payments.cardEnding', { card: name, last4: row.last4 }) : name;
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
      <SearchForm label={t('payments.search')} initial={query.search} onSearch={(text) => go({ search: text, page: '' })}>
        <Select label={t('payments.outcome')} options={outcomes()} value={query.status} onChange={(e) => go({ status: e.target.value, page: '' })} />
      </SearchForm>
      <ErrorNote error={list.error} />
      <Table
        caption={t('payments.caption')}
        rows={list.data?.results}
        rowKey={(x) => x.id}
        empty={query.search || query.status ? t('payments.noMatch') : t('payments.none')}
        columns={[
          { title: t('common.when'), cell: (x) => when(x.createdOn) },
          { title: t('payments.kind'), cell: (x) => t(KIND_WORDS[x.transactionType] ?? 'payments.kindOther') },
          { title: t('home.order'), cell: (x) => <Link to={`/orders/${encodeURIComponent(x.order.id)}`}>{x.order.id}</Link> },
          { title: t('common.customer'), cell: (x) => x.order.customer.email ?? x.order.customer.customerId },
          { title: t('payments.paidWith'), cell: card },
          { title: t('common.amount'), numeric: true, cell: (x) => money(x.amountTotalUnits, x.currency) },
          { title: t('payments.fee'), numeric: true, cell: (x) => money(x.morFeeUnits, x.currency) },
          { title: t('payments.tax'), numeric: true, cell: (x) => money(x.collectedTaxUnits, x.currency) },
          { title: t('payments.net'), numeric: true, cell: (x) => money(x.netPayoutUnits, x.currency) },
          { title: t('payments.outcome'), cell: (x) => <StatusBadge status={x.status} /> },
          { title: t('payments.available'), cell: (x) => (x.availableOn ? day(x.availableOn) : '—') },
        ]}
      />
      {list.data ? <Pager label={t('payments.pages')} page={query.page} count={list.data.count} capped={list.data.countCapped} pageSize={PAGE_SIZE} onPage={(p) => go({ page: String(p) })} /> : null}
    </>
  );
}
