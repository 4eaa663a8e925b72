import { useState, type ReactNode } from 'react';
import { useAction } from '../data';
import { t } from '../i18n/language';
import { ErrorNote } from './kit';

interface ConfirmationProps {
  /** The button that asks, e.g. "Revoke" (with words for screen readers saying what it acts on). */
  ask: ReactNode;
  /** The question, which names the group, e.g. "Revoke sk_test_AbCd1234?". */
  question: string;
  /** What it does and whether it can be undone. */
  children: ReactNode;
  /** The button that does it, e.g. "Yes, revoke sk_test_AbCd1234". */
  yes: string;
  perform(): Promise<unknown>;
  onDone(): void;
}

/** A change that asks first: one button, then the question with "Yes, …" and "Cancel"; the API's refusal in place. */
export function Confirmation({ ask, question, children, yes, perform, onDone }: ConfirmationProps) {
  const [asking, setAsking] = useState(false);
  const action = useAction(perform);
  if (!asking) {
    return (
      <button type="button" className="secondary" onClick={() => setAsking(true)}>
        {ask}
      </button>
    );
  }
  return (
    <div className="confirm" role="group" aria-label={question}>
      <p>{children}</p>
      <div className="actions">
        <button type="button" className="danger" disabled={action.busy} onClick={() => void action.perform().then((r) => r !== undefined && onDone())}>
          {yes}
        </button>
        <button type="button" className="secondary" onClick={() => setAsking(false)}>
          {t('common.cancel')}
        </button>
      </div>
      <ErrorNote error={action.error} />
    </div>
  );
}
