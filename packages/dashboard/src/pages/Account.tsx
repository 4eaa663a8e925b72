import { useState, type FormEvent } from 'react';
import { account } from '../api';
import type { SessionInfo } from '@billow/contract';
import { useAction, useResource } from '../data';
import { when } from '../format';
import { useSession } from '../session';
import { Badge, ErrorNote, Field, Notice, Section, Table } from '../ui/kit';

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

/** What a browser's user agent says, in a few words ("Chrome on Windows"); the whole text stays in a tooltip. */
export function deviceOf(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /(Chrome|Chromium)\//.test(userAgent)
      ? 'Chrome'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : /curl\//.test(userAgent)
            ? 'curl'
            : null;
  const system = /Android/.test(userAgent) ? 'Android' : /iPhone|iPad/.test(userAgent) ? 'iOS' : /Windows/.test(userAgent) ? 'Windows' : /Mac OS X|Macintosh/.test(userAgent) ? 'macOS' : /Linux|X11/.test(userAgent) ? 'Linux' : null;
  if (!browser && !system) return userAgent ? 'Another program' : 'Unknown device';
  return [browser ?? 'A browser', system ? `on ${system}` : ''].join(' ').trim();
}

function EndSession({ session, onDone }: { session: SessionInfo; onDone(): void }) {
  const end = useAction(() => account('DELETE', `/sessions/${session.id}`));
  return (
    <>
      <button type="button" className="secondary" disabled={end.busy} onClick={() => void end.perform().then((r) => r !== undefined && onDone())}>
        Sign out<span className="visually-hidden"> the session of {deviceOf(session.userAgent)} from {session.clientAddress}</span>
      </button>
      <ErrorNote error={end.error} />
    </>
  );
}

/** The person's own live sessions (every organization's): where and since when, and signing one out. */
export function YourSessions() {
  const list = useResource(() => account<{ results: SessionInfo[] }>('GET', '/sessions'), []);
  return (
    <Section title="Where you are signed in" actions={<button type="button" className="secondary" onClick={list.reload}>Refresh</button>}>
      <ErrorNote error={list.error} />
      <Table
        caption="Your sessions"
        rows={list.data?.results}
        rowKey={(s) => s.id}
        empty="No other sessions."
        columns={[
          {
            title: 'Device',
            cell: (s) => (
              <>
                <span title={s.userAgent}>{deviceOf(s.userAgent)}</span> {s.current ? <Badge tone="good">This browser</Badge> : null}
              </>
            ),
          },
          { title: 'Address', cell: (s) => <code>{s.clientAddress}</code> },
          { title: 'Signed in', nowrap: true, cell: (s) => when(s.createdOn) },
          { title: 'Last used', nowrap: true, cell: (s) => when(s.lastSeenOn) },
          { title: 'Actions', cell: (s) => (s.current ? <span className="muted">Sign out from the menu</span> : <EndSession session={s} onDone={list.reload} />) },
        ]}
      />
    </Section>
  );
}
