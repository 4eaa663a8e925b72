import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../api';
import { useAction, useResource } from '../data';
import { useCan } from '../session';
import { ApiKeys } from './ApiKeys';
import { TestClocks } from './TestClocks';
import { Webhooks } from './Webhooks';
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
    <Section title="Payment provider">
      <ErrorNote error={provider.error} />
      {p ? (
        <p>
          {p.provider === 'stripe' ? `Stripe (${p.mode} mode), key ${p.secretKeyHint ?? ''}` : 'The built-in test provider (test cards, no real money).'}
          {p.webhookPath ? (
            <>
              {' '}Stripe's webhook goes to <code>{`${window.location.origin}${p.webhookPath}`}</code>.
            </>
          ) : null}
        </p>
      ) : provider.data === null ? (
        <p>No payment provider: production purchases are refused until Stripe's keys are set.</p>
      ) : null}
      {canWrite ? <Checkbox label="Set Stripe's keys" checked={replace} onChange={setReplace} /> : null}
      {canWrite && replace ? (
        <form
          className="row-form"
          aria-label="Stripe keys"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            void save.perform().then((r) => r && provider.reload());
          }}
        >
          <Field label="Stripe secret key" type="password" autoComplete="off" required value={secretKey} onChange={(e) => setSecretKey(e.target.value)} />
          <Field label="Stripe webhook signing secret" type="password" autoComplete="off" required value={webhookSecret} onChange={(e) => setWebhookSecret(e.target.value)} />
          <button type="submit" disabled={save.busy}>
            Save Stripe keys
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
      <PageTitle>Developers</PageTitle>
      <ApiKeys canWrite={canManageKeys} />
      <Webhooks canWrite={canWrite} />
      <TestClocks canWrite={canWrite} />
      <PaymentProvider canWrite={canSetProvider} />
    </>
  );
}
