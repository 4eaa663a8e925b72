import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { account } from '../api';
import { useAction } from '../data';
import { useSession, type Session } from '../session';
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
    <Narrow title="Sign in">
      <form onSubmit={submit} className="stack">
        <Field label="Email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field label="Password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        {needsCode ? (
          <Field label="Code from your authenticator app" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" required autoFocus value={totpCode} onChange={(e) => setTotpCode(e.target.value)} />
        ) : null}
        <ErrorNote error={error} />
        <button type="submit" disabled={signIn.busy}>
          {needsCode ? 'Verify and sign in' : 'Sign in'}
        </button>
      </form>
      <p>
        <Link to="/reset-password">Forgot your password?</Link>
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
    <Narrow title="Welcome to Billow">
      {!token ? <p>This link has no token. Ask for a new sign-in link, or sign in with your password.</p> : null}
      <Loading loading={link.busy} />
      <ErrorNote error={link.error} />
      {link.error || !token ? (
        <p>
          <Link to="/sign-in">Sign in with your password</Link>
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
    <Narrow title="Join your team on Billow">
      <form onSubmit={submit} className="stack">
        <Field label="Your name" autoComplete="name" required value={name} onChange={(e) => setName(e.target.value)} />
        <Field label="Choose a password" type="password" autoComplete="new-password" required minLength={10} hint="At least 10 characters." value={password} onChange={(e) => setPassword(e.target.value)} />
        <ErrorNote error={accept.error} />
        <button type="submit" disabled={accept.busy}>
          Accept the invitation
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
    if ((await request.perform({ email })) !== undefined) setDone('If an account has this address, an email with a link to choose a new password is on its way.');
  }

  async function choose(event: FormEvent) {
    event.preventDefault();
    if ((await reset.perform({ token, password })) !== undefined) setDone('Your password is changed. Sign in with it now.');
  }

  if (done) {
    return (
      <Narrow title="Reset your password">
        <Notice>{done}</Notice>
        <p>
          <Link to="/sign-in">Sign in</Link>
        </p>
      </Narrow>
    );
  }
  return (
    <Narrow title={token ? 'Choose a new password' : 'Reset your password'}>
      {token ? (
        <form onSubmit={choose} className="stack">
          <Field label="New password" type="password" autoComplete="new-password" required minLength={10} hint="At least 10 characters." value={password} onChange={(e) => setPassword(e.target.value)} />
          <ErrorNote error={reset.error} />
          <button type="submit" disabled={reset.busy}>
            Save the new password
          </button>
        </form>
      ) : (
        <form onSubmit={ask} className="stack">
          <Field label="Email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <ErrorNote error={request.error} />
          <button type="submit" disabled={request.busy}>
            Email me a link
          </button>
        </form>
      )}
      <p>
        <Link to="/sign-in">Back to sign-in</Link>
      </p>
    </Narrow>
  );
}
