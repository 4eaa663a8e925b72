import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { Customer, TestClock, TestClockInvoice } from '@billow/contract';
import { api, type Page } from '../api';
import { useAction, useResource } from '../data';
import { day, money, when } from '../format';
import { t } from '../i18n/language';
import { ErrorNote, Field, Notice, Select, RefreshButton, Section, StatusBadge, Table } from '../ui/kit';

function addMonth(iso: string): string {
  const date = new Date(iso);
  date.setUTCMonth(date.getUTCMonth() + 1);
  return date.toISOString();
}

const clockName = (clock: TestClock) => clock.name ?? clock.id;

function ClockRow({ clock, canWrite, open, onOpen, onDone }: { clock: TestClock; canWrite: boolean; open: boolean; onOpen(): void; onDone(): void }) {
  const advance = useAction(() => api<TestClock>('POST', `/test-clocks/${clock.id}/advance/`, { body: { frozenTime: addMonth(clock.frozenTime) } }));
  return (
    <div className="actions">
      {canWrite ? (
        <button type="button" className="secondary" disabled={advance.busy || clock.status !== 'ready'} onClick={() => void advance.perform().then((r) => r && onDone())}>
          {t('clocks.advance')}<span className="visually-hidden"> {t('clocks.on', { name: clockName(clock) })}</span>
        </button>
      ) : null}
      <button type="button" className="link" aria-expanded={open} onClick={onOpen}>
        {open ? t('clocks.hideWhat') : t('clocks.what')}
        <span className="visually-hidden"> {t('clocks.on', { name: clockName(clock) })}</span>
      </button>
      <ErrorNote error={advance.error} />
    </div>
  );
}

/** What the clock's advances billed: the invoices of its customers, newest first (decision 0087). */
function ClockInvoices({ clock }: { clock: TestClock }) {
  const list = useResource(() => api<Page<TestClockInvoice>>('GET', `/test-clocks/${clock.id}/invoices/`, { query: { page_size: 20 } }), [clock.id, clock.frozenTime, clock.status]);
  return (
    <div className="clock-activity">
      <h3>{t('clocks.whatOn', { name: clockName(clock) })}</h3>
      <ErrorNote error={list.error} />
      <Table
        caption={t('clocks.invoicesOn', { name: clockName(clock) })}
        rows={list.data?.results}
        rowKey={(i) => i.id}
        empty={t('clocks.nothingBilled')}
        columns={[
          { title: t('common.issued'), nowrap: true, cell: (i) => when(i.issuedOn) },
          { title: t('common.customer'), cell: (i) => <Link to={`/customers/${encodeURIComponent(i.customerId)}`}>{i.customerId}</Link> },
          { title: t('common.period'), nowrap: true, cell: (i) => (i.periodStart ? t('clocks.span', { from: day(i.periodStart), to: day(i.periodEnd) }) : t('clocks.firstPayment')) },
          { title: t('common.total'), numeric: true, cell: (i) => money(i.totalUnits, i.currency) },
          { title: t('common.status'), cell: (i) => <StatusBadge status={i.status} text={i.status === 'PAYMENT_FAILED' ? t('clocks.failedAfter', { count: i.attemptCount }) : undefined} /> },
        ]}
      />
    </div>
  );
}

function ClockChoice({ clocks, value, onChange }: { clocks: TestClock[]; value: string; onChange(id: string): void }) {
  return <Select label={t('clocks.clock')} value={value} onChange={(e) => onChange(e.target.value)} options={clocks.map((c) => [c.id, clockName(c)])} />;
}

function NewClockCustomer({ clocks, onDone }: { clocks: TestClock[]; onDone(): void }) {
  const [clock, setClock] = useState('');
  const [customerId, setCustomerId] = useState('');
  const [email, setEmail] = useState('');
  const create = useAction(() => api('POST', '/customers/', { body: { customerId, email, testClockId: clock || clocks[0]?.id } }));
  return (
    <form
      className="row-form"
      aria-label={t('clocks.newCustomerForm')}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void create.perform().then((r) => r && onDone());
      }}
    >
      <ClockChoice clocks={clocks} value={clock} onChange={setClock} />
      <Field label={t('clocks.newCustomerId')} required value={customerId} onChange={(e) => setCustomerId(e.target.value)} />
      <Field label={t('clocks.theirEmail')} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      <button type="submit" disabled={create.busy}>
        {t('clocks.addCustomer')}
      </button>
      <ErrorNote error={create.error} />
    </form>
  );
}

/** An existing customer without subscriptions moves onto a clock (decision 0087). */
function AttachCustomer({ clocks, onDone }: { clocks: TestClock[]; onDone(): void }) {
  const [clock, setClock] = useState('');
  const [customerId, setCustomerId] = useState('');
  const attach = useAction(() => api<Customer>('POST', `/test-clocks/${encodeURIComponent(clock || clocks[0]?.id || '')}/customers/`, { body: { customerId } }));
  return (
    <form
      className="row-form"
      aria-label={t('clocks.attachForm')}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void attach.perform().then((r) => {
          if (!r) return;
          setCustomerId('');
          onDone();
        });
      }}
    >
      <ClockChoice clocks={clocks} value={clock} onChange={setClock} />
      <Field label={t('clocks.existingId')} required value={customerId} onChange={(e) => setCustomerId(e.target.value)} hint={t('clocks.existingHint')} />
      <button type="submit" disabled={attach.busy}>
        {t('clocks.attach')}
      </button>
      <ErrorNote error={attach.error} />
      {attach.result && !attach.error ? <Notice>{t('clocks.attached', { customer: attach.result.customerId })}</Notice> : null}
    </form>
  );
}

function NewClock({ onDone }: { onDone(): void }) {
  const [name, setName] = useState('');
  const create = useAction(() => api<TestClock>('POST', '/test-clocks/', { body: { name: name || null, frozenTime: new Date().toISOString() } }));
  return (
    <form
      className="row-form"
      aria-label={t('clocks.createForm')}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void create.perform().then((r) => r && onDone());
      }}
    >
      <Field label={t('clocks.name')} value={name} onChange={(e) => setName(e.target.value)} hint={t('clocks.nameHint')} />
      <button type="submit" disabled={create.busy}>
        {t('clocks.create')}
      </button>
      <ErrorNote error={create.error} />
    </form>
  );
}

export function TestClocks({ canWrite }: { canWrite: boolean }) {
  const list = useResource(() => api<Page<TestClock>>('GET', '/test-clocks/', { query: { page_size: 20 } }), []);
  const [open, setOpen] = useState<string | null>(null);
  const clocks = list.data?.results ?? [];
  const opened = clocks.find((c) => c.id === open);
  return (
    <Section title={t('clocks.title')} actions={<RefreshButton onClick={list.reload} />}>
      <ErrorNote error={list.error} />
      <Table
        caption={t('clocks.title')}
        rows={list.data?.results}
        rowKey={(c) => c.id}
        empty={t('clocks.empty')}
        columns={[
          { title: t('common.name'), cell: clockName },
          { title: t('clocks.time'), nowrap: true, cell: (c) => when(c.advancingTo ?? c.frozenTime) },
          { title: t('licenses.state'), cell: (c) => <StatusBadge status={c.failure ? 'failed' : c.status} text={c.failure ? t('clocks.failedWith', { failure: c.failure }) : undefined} /> },
          { title: t('clocks.customers'), numeric: true, cell: (c) => c.customerCount },
          { title: t('common.actions'), cell: (c) => <ClockRow clock={c} canWrite={canWrite} open={open === c.id} onOpen={() => setOpen(open === c.id ? null : c.id)} onDone={list.reload} /> },
        ]}
      />
      {opened ? <ClockInvoices clock={opened} /> : null}
      {canWrite ? <NewClock onDone={list.reload} /> : null}
      {canWrite && clocks.length > 0 ? (
        <>
          <NewClockCustomer clocks={clocks} onDone={list.reload} />
          <AttachCustomer clocks={clocks} onDone={list.reload} />
        </>
      ) : null}
    </Section>
  );
}
