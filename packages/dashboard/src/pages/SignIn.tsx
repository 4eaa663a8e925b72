import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { account } from '../api';
import { useAction } from '../data';
import { useSession, type Session } from '../session';
import { t } from '../i18n/language';
import { ErrorNote, Field, Loading, Notice } from '../ui/kit';

function Narrow({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="narrow">
      <p className="brand">Billow</p>
      <h1>{title}</h1>
      {children}
    </main>
  );
}

/** Where to go after signing in: a page of the dashboard only, never another site. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function SignIn() {
  const { signedIn } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totpCode, setTotpCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const signIn = useAction((body: object) => account<Session>('POST', '/sign-in', body));

  useEffect(() => {
    if (signIn.error?.code?.toUpperCase() === 'TOTP_REQUIRED') setNeedsCode(true);
  }, [signIn.error]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const session = await signIn.perform(needsCode ? { email, password, totpCode } : { email, password });
    if (session) {
      signedIn(session);
      navigate(safeNext(params.get('next')), { replace: true });
    }
  }

  const error = signIn.error?.code?.toUpperCase() === 'TOTP_REQUIRED' && !totpCode ? null : signIn.error;
  return (
    <Narrow title={t('signIn.title')}>
      <form onSubmit={submit} className="stack">
        <Field label={t('common.email')} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field label={t('signIn.password')} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        {needsCode ? (
          <Field label={t('signIn.code')} inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" required autoFocus value={totpCode} onChange={(e) => setTotpCode(e.target.value)} />
        ) : null}
        <ErrorNote error={error} />
        <button type="submit" disabled={signIn.busy}>
          {needsCode ? t('signIn.verify') : t('signIn.submit')}
        </button>
      </form>
      <p>
        <Link to="/reset-password">{t('signIn.forgot')}</Link>
      </p>
    </Narrow>
  );
}

/** The start-up link and the email sign-in link: /dashboard/welcome?token=… */
export function Welcome() {
  const { signedIn } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const started = useRef(false);
  const link = useAction((value: string) => account<Session>('POST', '/sign-in/link', { token: value }));

  useEffect(() => {
    if (started.current || !token) return;
    started.current = true;
    void link.perform(token).then((session) => {
      if (!session) return;
      signedIn(session);
      navigate('/', { replace: true });
    });
  }, [token, link, signedIn, navigate]);

  return (
    <Narrow title={t('welcome.title')}>
      {!token ? <p>{t('welcome.noToken')}</p> : null}
      <Loading loading={link.busy} />
      <ErrorNote error={link.error} />
      {link.error || !token ? (
        <p>
          <Link to="/sign-in">{t('welcome.withPassword')}</Link>
        </p>
      ) : null}
    </Narrow>
  );
}

export function AcceptInvitation() {
  const { signedIn } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const accept = useAction((body: object) => account<Session>('POST', '/invitations/accept', body));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const session = await accept.perform({ token: params.get('token') ?? '', name, password });
    if (session) {
      signedIn(session);
      navigate('/', { replace: true });
    }
  }

  return (
    <Narrow title={t('invitation.title')}>
      <form onSubmit={submit} className="stack">
        <Field label={t('invitation.name')} autoComplete="name" required value={name} onChange={(e) => setName(e.target.value)} />
        <Field label={t('invitation.password')} type="password" autoComplete="new-password" required minLength={10} hint={t('invitation.passwordHint')} value={password} onChange={(e) => setPassword(e.target.value)} />
        <ErrorNote error={accept.error} />
        <button type="submit" disabled={accept.busy}>
          {t('invitation.accept')}
        </button>
      </form>
    </Narrow>
  );
}

/** Without a token: ask for a reset email. With one (the emailed link): choose a new password. */
export function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const request = useAction((body: object) => account('POST', '/password-reset/request', body));
  const reset = useAction((body: object) => account('POST', '/password-reset', body));
  const [done, setDone] = useState<string | null>(null);

  async function ask(event: FormEvent) {
    event.preventDefault();
    if ((await request.perform({ email })) !== undefined) setDone(t('reset.sent'));
  }

  async function choose(event: FormEvent) {
    event.preventDefault();
    if ((await reset.perform({ token, password })) !== undefined) setDone(t('reset.changed'));
  }

  if (done) {
    return (
      <Narrow title={t('reset.title')}>
        <Notice>{done}</Notice>
        <p>
          <Link to="/sign-in">{t('signIn.submit')}</Link>
        </p>
      </Narrow>
    );
  }
  return (
    <Narrow title={token ? t('reset.chooseTitle') : t('reset.title')}>
      {token ? (
        <form onSubmit={choose} className="stack">
          <Field label={t('reset.newPassword')} type="password" autoComplete="new-password" required minLength={10} hint={t('invitation.passwordHint')} value={password} onChange={(e) => setPassword(e.target.value)} />
          <ErrorNote error={reset.error} />
          <button type="submit" disabled={reset.busy}>
            {t('reset.save')}
          </button>
        </form>
      ) : (
        <form onSubmit={ask} className="stack">
          <Field label={t('common.email')} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <ErrorNote error={request.error} />
          <button type="submit" disabled={request.busy}>
            {t('reset.emailMe')}
          </button>
        </form>
      )}
      <p>
        <Link to="/sign-in">{t('reset.back')}</Link>
      </p>
    </Narrow>
  );
}
