import { useState, type FormEvent } from 'react';
import { account } from '../api';
import { useAction } from '../data';
import { useSession } from '../session';
import { ErrorNote, Field, Notice, Section } from '../ui/kit';

/** The signed-in person's own password and second factor (/dashboard/api, not the public API). */
export function AccountSecurity() {
  const { session } = useSession();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [code, setCode] = useState('');
  const password = useAction(() => account('POST', '/password', { currentPassword, newPassword }));
  const setup = useAction(() => account<{ secret: string; otpauthUrl: string }>('POST', '/totp/setup', {}));
  const enable = useAction(() => account('POST', '/totp/enable', { code }));
  return (
    <Section title="Your account">
      <form
        className="row-form"
        aria-label="Change your password"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          void password.perform().then((r) => {
            if (r === undefined) return;
            setCurrent('');
            setNew('');
          });
        }}
      >
        <Field label="Current password" type="password" autoComplete="current-password" required value={currentPassword} onChange={(e) => setCurrent(e.target.value)} />
        <Field label="New password" type="password" autoComplete="new-password" required value={newPassword} onChange={(e) => setNew(e.target.value)} />
        <button type="submit" disabled={password.busy}>
          Change password
        </button>
        <ErrorNote error={password.error} />
        {password.result !== undefined && !password.error ? <Notice>Password changed.</Notice> : null}
      </form>
      {session?.user.totpEnabled ? (
        <p>A second factor (authenticator app) protects your sign-in.</p>
      ) : (
        <div>
          <button type="button" className="secondary" disabled={setup.busy} onClick={() => void setup.perform()}>
            Set up an authenticator app
          </button>
          <ErrorNote error={setup.error} />
          {setup.result ? (
            <form
              className="row-form"
              aria-label="Turn on the second factor"
              onSubmit={(event: FormEvent) => {
                event.preventDefault();
                void enable.perform();
              }}
            >
              <p>
                Add this key to your authenticator app: <code className="secret">{setup.result.secret}</code>
              </p>
              <Field label="Code from the app" inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
              <button type="submit" disabled={enable.busy}>
                Turn on
              </button>
              <ErrorNote error={enable.error} />
              {enable.result !== undefined && !enable.error ? <Notice>The second factor is on from your next sign-in.</Notice> : null}
            </form>
          ) : null}
        </div>
      )}
    </Section>
  );
}
