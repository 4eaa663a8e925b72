import { useState } from 'react';
import { Link } from 'react-router';
import { api, type Page } from '../api';
import { useResource } from '../data';
import { actorWords, eventLabel, objectWord } from '../events';
import { day, when } from '../format';
import { Confirmation } from '../ui/Confirmation';
import { t } from '../i18n/language';
import { Badge, ErrorNote, Pager, Section, Table } from '../ui/kit';
import type { CustomerEvent, CustomerLicense, CustomerLicenseInstance, CustomerLicenseList, LicenseInstanceFreed } from '@billow/contract';

const PAGE_SIZE = 10;
const LINKED: Record<string, string> = { order: '/orders/', subscription: '/subscriptions/' };

function EventObject({ event }: { event: CustomerEvent }) {
  const word = objectWord(event.objectType);
  const base = event.objectType ? LINKED[event.objectType] : undefined;
  if (!event.objectId || event.objectType === 'customer') return <>{word}</>;
  if (!base) return <>{word}</>;
  return (
    <Link to={`${base}${encodeURIComponent(event.objectId)}`}>
      {word}
      <span className="visually-hidden"> {t('timeline.ofEvent', { when: when(event.createdOn) })}</span>
    </Link>
  );
}

/** The customer's events (GET /customers/{id}/events/, decision 0085), newest first, in words. */
export function Timeline({ customerId }: { customerId: string }) {
  const [page, setPage] = useState(1);
  const list = useResource(() => api<Page<CustomerEvent>>('GET', `/customers/${encodeURIComponent(customerId)}/events/`, { query: { page, page_size: PAGE_SIZE } }), [customerId, page]);
  return (
    <Section title={t('timeline.title')}>
      <ErrorNote error={list.error} />
      <Table
        caption={t('timeline.caption')}
        rows={list.data?.results}
        rowKey={(e) => e.id}
        empty={t('timeline.empty')}
        columns={[
          { title: t('common.when'), cell: (e) => when(e.createdOn) },
          { title: t('timeline.what'), cell: (e) => eventLabel(e.type) },
          { title: t('timeline.about'), cell: (e) => <EventObject event={e} /> },
          { title: t('timeline.by'), cell: (e) => actorWords(e.actor) },
        ]}
      />
      {list.data ? <Pager label={t('timeline.pages')} page={page} count={list.data.count} pageSize={PAGE_SIZE} onPage={setPage} /> : null}
    </Section>
  );
}

const activations = (l: CustomerLicense) =>
  l.activationLimit === null ? t('licenses.noLimit', { count: l.instances.length }) : t('licenses.ofLimit', { count: l.instances.length, limit: l.activationLimit });

/** Frees one machine of a key (a Billow extension): the activation is given back, the key stays as it is. */
function FreeMachine({ customerId, license, instance, onDone }: { customerId: string; license: CustomerLicense; instance: CustomerLicenseInstance; onDone(): void }) {
  const path = `/customers/${encodeURIComponent(customerId)}/licenses/${license.id}/instances/${instance.id}/deactivate/`;
  const name = instance.name || t('licenses.thisMachine');
  return (
    <Confirmation
      ask={
        <>
          {t('licenses.free')}<span className="visually-hidden"> ({name})</span>
        </>
      }
      question={t('licenses.freeQuestion', { name })}
      yes={t('licenses.freeYes', { name })}
      perform={() => api<LicenseInstanceFreed>('POST', path)}
      onDone={onDone}
    >
      {t('licenses.freeExplained', { name })}
    </Confirmation>
  );
}

function Machines({ customerId, license, canWrite, onChange }: { customerId: string; license: CustomerLicense; canWrite: boolean; onChange(): void }) {
  if (license.instances.length === 0) return <>{t('common.none')}</>;
  return (
    <ul className="plain">
      {license.instances.map((i) => (
        <li key={i.id}>
          {i.name} <span className="muted">
            {t('licenses.since', { day: day(i.activatedOn) })}
            {i.lastValidatedOn ? t('licenses.lastChecked', { day: day(i.lastValidatedOn) }) : ''}
          </span>
          {canWrite ? <FreeMachine customerId={customerId} license={license} instance={i} onDone={onChange} /> : null}
        </li>
      ))}
    </ul>
  );
}

/** The customer's license keys and the machines each is active on (GET /customers/{id}/licenses/, decision 0085); members who may change customers free a machine. */
export function Licenses({ customerId, canWrite }: { customerId: string; canWrite: boolean }) {
  const list = useResource(() => api<CustomerLicenseList>('GET', `/customers/${encodeURIComponent(customerId)}/licenses/`), [customerId]);
  return (
    <Section title={t('licenses.title')}>
      <ErrorNote error={list.error} />
      <Table
        caption={t('licenses.caption')}
        rows={list.data?.licenses}
        rowKey={(l) => l.id}
        empty={t('licenses.empty')}
        columns={[
          { title: t('licenses.key'), cell: (l) => <code>{l.licenseKey}</code> },
          { title: t('common.plan'), cell: (l) => l.planName },
          { title: t('licenses.machinesActive'), numeric: true, cell: activations },
          { title: t('licenses.machines'), cell: (l) => <Machines customerId={customerId} license={l} canWrite={canWrite} onChange={list.reload} /> },
          { title: t('common.expires'), nowrap: true, cell: (l) => (l.expiresOn ? day(l.expiresOn) : t('common.never')) },
          { title: t('licenses.state'), cell: (l) => (l.enabled ? <Badge tone="good">{t('licenses.usable')}</Badge> : <Badge tone="bad">{t('licenses.disabled')}</Badge>) },
        ]}
      />
    </Section>
  );
}
