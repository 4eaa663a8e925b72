import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../api';
import { useAction, useResource } from '../data';
import { useCan } from '../session';
import { ApiKeys } from './ApiKeys';
import { TestClocks } from './TestClocks';
import { Webhooks } from './Webhooks';
import { t } from '../i18n/language';
import { Checkbox, ErrorNote, Field, PageTitle, Section } from '../ui/kit';

interface Provider {
  provider: 'stripe' | 'sandbox';
  mode: string;
  secretKeyHint: string | null;
  webhookPath: string | null;
}

function PaymentProvider({ canWrite }: { canWrite: boolean }) {
  const provider = useResource(async () => {
    try {
      return await api<Provider>('GET', '/payment-provider/');
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  }, []);
  const [secretKey, setSecretKey] = useState('');
  const [webhookSecret, setWebhookSecret] = useState('');
  const [replace, setReplace] = useState(false);
  const save = useAction(() => api<Provider>('PUT', '/payment-provider/', { body: { provider: 'stripe', stripeSecretKey: secretKey, stripeWebhookSecret: webhookSecret } }));
  const p = provider.data;
  return (
    <Section title={t('provider.title')}>
      <ErrorNote error={provider.error} />
      {p ? (
        <p>
          {p.provider === 'stripe' ? t('provider.stripe', { mode: p.mode, hint: p.secretKeyHint ?? '' }) : t('provider.builtIn')}
          {p.webhookPath ? (
            <>
              {' '}
              {t('provider.webhookTo')} <code>{`${window.location.origin}${p.webhookPath}`}</code>.
            </>
          ) : null}
        </p>
      ) : provider.data === null ? (
        <p>{t('provider.none')}</p>
      ) : null}
      {canWrite ? <Checkbox label={t('provider.setKeys')} checked={replace} onChange={setReplace} /> : null}
      {canWrite && replace ? (
        <form
          className="row-form"
          aria-label={t('provider.form')}
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            void save.perform().then((r) => r && provider.reload());
          }}
        >
          <Field label={t('provider.secretKey')} type="password" autoComplete="off" required value={secretKey} onChange={(e) => setSecretKey(e.target.value)} />
          <Field label={t('provider.webhookSecret')} type="password" autoComplete="off" required value={webhookSecret} onChange={(e) => setWebhookSecret(e.target.value)} />
          <button type="submit" disabled={save.busy}>
            {t('provider.save')}
          </button>
          <ErrorNote error={save.error} />
        </form>
      ) : null}
    </Section>
  );
}

export function Developers() {
  const canWrite = useCan('developers');
  const canSetProvider = useCan('settings');
  const canManageKeys = useCan('keys');
  return (
    <>
      <PageTitle>{t('developers.title')}</PageTitle>
      <ApiKeys canWrite={canManageKeys} />
      <Webhooks canWrite={canWrite} />
      <TestClocks canWrite={canWrite} />
      <PaymentProvider canWrite={canSetProvider} />
    </>
  );
}
