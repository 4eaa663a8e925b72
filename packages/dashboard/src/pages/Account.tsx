import { useState, type FormEvent } from 'react';
import { account } from '../api';
import type { SessionInfo } from '@billow/contract';
import { useAction, useResource } from '../data';
import { when } from '../format';
import { useSession } from '../session';
import { browserLanguage, currentLanguage, LANGUAGE_NAMES, LANGUAGES, navigatorLanguages, t, type Language } from '../i18n/language';
import { Badge, ErrorNote, Field, Notice, RefreshButton, Section, Select, Table } from '../ui/kit';

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
    <Section title={t('account.title')}>
      <form
        className="row-form"
        aria-label={t('account.changePassword')}
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          void password.perform().then((r) => {
            if (r === undefined) return;
            setCurrent('');
            setNew('');
          });
        }}
      >
        <Field label={t('account.currentPassword')} type="password" autoComplete="current-password" required value={currentPassword} onChange={(e) => setCurrent(e.target.value)} />
        <Field label={t('account.newPassword')} type="password" autoComplete="new-password" required value={newPassword} onChange={(e) => setNew(e.target.value)} />
        <button type="submit" disabled={password.busy}>
          {t('account.changePasswordButton')}
        </button>
        <ErrorNote error={password.error} />
        {password.result !== undefined && !password.error ? <Notice>{t('account.passwordChanged')}</Notice> : null}
      </form>
      {session?.user.totpEnabled ? (
        <p>{t('account.totpOn')}</p>
      ) : (
        <div>
          <button type="button" className="secondary" disabled={setup.busy} onClick={() => void setup.perform()}>
            {t('account.setUpTotp')}
          </button>
          <ErrorNote error={setup.error} />
          {setup.result ? (
            <form
              className="row-form"
              aria-label={t('account.turnOnTotp')}
              onSubmit={(event: FormEvent) => {
                event.preventDefault();
                void enable.perform();
              }}
            >
              <p>
                {t('account.addKey')} <code className="secret">{setup.result.secret}</code>
              </p>
              <Field label={t('account.codeFromApp')} inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
              <button type="submit" disabled={enable.busy}>
                {t('account.turnOn')}
              </button>
              <ErrorNote error={enable.error} />
              {enable.result !== undefined && !enable.error ? <Notice>{t('account.totpEnabled')}</Notice> : null}
            </form>
          ) : null}
        </div>
      )}
    </Section>
  );
}

/**
 * The dashboard's language, the person's own choice kept on their account (PUT /dashboard/api/language):
 * one of the five, or the browser's languages (else English). The page speaks it as soon as it is saved.
 */
export function YourLanguage() {
  const { session, setLanguage } = useSession();
  const [chosen, setChosen] = useState<string>(session?.user.language ?? '');
  const save = useAction((value: Language | null) => setLanguage(value).then(() => true));
  const browser = LANGUAGE_NAMES[browserLanguage(navigatorLanguages())];
  const options: Array<[string, string]> = [['', t('account.languageBrowser', { language: browser })], ...LANGUAGES.map((code): [string, string] => [code, LANGUAGE_NAMES[code]])];
  return (
    <Section title={t('account.languageTitle')}>
      <form
        className="row-form"
        aria-label={t('account.languageTitle')}
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          void save.perform(chosen === '' ? null : (chosen as Language));
        }}
      >
        <Select label={t('account.language')} options={options} value={chosen} onChange={(e) => setChosen(e.target.value)} />
        <button type="submit" disabled={save.busy}>
          {t('account.languageSave')}
        </button>
      </form>
      <p className="hint">{t('account.languageHint')}</p>
      <ErrorNote error={save.error} />
      {save.result && !save.error ? <Notice>{t('account.languageSaved', { language: LANGUAGE_NAMES[currentLanguage()] })}</Notice> : null}
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
  if (!browser && !system) return userAgent ? t('sessions.anotherProgram') : t('sessions.unknownDevice');
  return system ? t('sessions.browserOn', { browser: browser ?? t('sessions.aBrowser'), system }) : (browser ?? t('sessions.aBrowser'));
}

function EndSession({ session, onDone }: { session: SessionInfo; onDone(): void }) {
  const end = useAction(() => account('DELETE', `/sessions/${session.id}`));
  return (
    <>
      <button type="button" className="secondary" disabled={end.busy} onClick={() => void end.perform().then((r) => r !== undefined && onDone())}>
        {t('layout.signOut')}<span className="visually-hidden"> {t('sessions.signOutHidden', { device: deviceOf(session.userAgent), address: session.clientAddress })}</span>
      </button>
      <ErrorNote error={end.error} />
    </>
  );
}

/** The person's own live sessions (every organization's): where and since when, and signing one out. */
export function YourSessions() {
  const list = useResource(() => account<{ results: SessionInfo[] }>('GET', '/sessions'), []);
  return (
    <Section title={t('sessions.title')} actions={<RefreshButton onClick={list.reload} />}>
      <ErrorNote error={list.error} />
      <Table
        caption={t('sessions.caption')}
        rows={list.data?.results}
        rowKey={(s) => s.id}
        empty={t('sessions.empty')}
        columns={[
          {
            title: t('sessions.device'),
            cell: (s) => (
              <>
                <span title={s.userAgent}>{deviceOf(s.userAgent)}</span> {s.current ? <Badge tone="good">{t('sessions.thisBrowser')}</Badge> : null}
              </>
            ),
          },
          { title: t('sessions.address'), cell: (s) => <code>{s.clientAddress}</code> },
          { title: t('sessions.signedIn'), nowrap: true, cell: (s) => when(s.createdOn) },
          { title: t('sessions.lastUsed'), nowrap: true, cell: (s) => when(s.lastSeenOn) },
          { title: t('common.actions'), cell: (s) => (s.current ? <span className="muted">{t('sessions.fromMenu')}</span> : <EndSession session={s} onDone={list.reload} />) },
        ]}
      />
    </Section>
  );
}
