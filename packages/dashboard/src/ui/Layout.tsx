import { useEffect } from 'react';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { useSession } from '../session';
import { Loading } from './kit';

const NAV: Array<[string, string]> = [
  ['/', 'Home'],
  ['/analytics', 'Analytics'],
  ['/customers', 'Customers'],
  ['/catalog', 'Catalog'],
  ['/subscriptions', 'Subscriptions'],
  ['/orders', 'Orders & invoices'],
  ['/selling', 'Selling'],
  ['/developers', 'Developers'],
  ['/settings', 'Settings'],
];

/** Sandbox and production, switched here and nowhere else; the whole frame shows which one is on. */
function EnvironmentSwitch() {
  const { environment, switchEnvironment } = useSession();
  return (
    <fieldset className="env-switch">
      <legend className="visually-hidden">Environment</legend>
      {(['sandbox', 'production'] as const).map((value) => (
        <label key={value} className={environment === value ? 'on' : undefined}>
          <input type="radio" name="environment" value={value} checked={environment === value} onChange={() => switchEnvironment(value)} />
          {value === 'sandbox' ? 'Sandbox' : 'Production'}
        </label>
      ))}
    </fieldset>
  );
}

function OrganizationPicker() {
  const { session, membership, chooseOrganization } = useSession();
  if (!session || session.memberships.length < 2) return <span className="org-name">{membership?.organizationName}</span>;
  return (
    <label className="org-picker">
      <span className="visually-hidden">Organization</span>
      <select value={membership?.organizationId} onChange={(event) => chooseOrganization(event.target.value)}>
        {session.memberships.map((m) => (
          <option key={m.organizationId} value={m.organizationId}>
            {m.organizationName}
          </option>
        ))}
      </select>
    </label>
  );
}

export function Layout() {
  const { session, membership, environment, signOut } = useSession();
  const location = useLocation();
  useEffect(() => {
    document.body.dataset.environment = environment;
  }, [environment]);
  if (session === undefined) return <Loading loading />;
  if (session === null) return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return (
    <div className={`frame env-${environment}`}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header>
        <div className="top">
        <span className="brand">Billow</span>
        <OrganizationPicker />
        <EnvironmentSwitch />
        <span className="who">
          {session.user.email}
          {membership ? <span className="role"> ({membership.role})</span> : null}
        </span>
        <button type="button" className="link" onClick={() => void signOut()}>
          Sign out
        </button>
        </div>
        {environment === 'sandbox' ? (
          <p className="env-banner" role="note">
            Sandbox: test data, test cards, no real money.
          </p>
        ) : (
          <p className="env-banner env-banner-live" role="note">
            Production: real customers and real money.
          </p>
        )}
      </header>
      <div className="body">
        <nav className="side" aria-label="Dashboard">
          <ul>
            {NAV.map(([to, label]) => (
              <li key={to}>
                <NavLink to={to} end={to === '/'}>
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          {membership ? <Outlet /> : <p>You are not a member of any organization yet. Ask an owner to invite you.</p>}
        </main>
      </div>
    </div>
  );
}
