import { useEffect } from 'react';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { useSession } from '../session';
import { t, type MessageKey } from '../i18n/language';
import { Loading } from './kit';

const NAV: Array<[string, MessageKey]> = [
  ['/', 'nav.home'],
  ['/analytics', 'nav.analytics'],
  ['/customers', 'nav.customers'],
  ['/catalog', 'nav.catalog'],
  ['/subscriptions', 'nav.subscriptions'],
  ['/orders', 'nav.orders'],
  ['/selling', 'nav.selling'],
  ['/developers', 'nav.developers'],
  ['/settings', 'nav.settings'],
];

/** Sandbox and production, switched here and nowhere else; the whole frame shows which one is on. */
function EnvironmentSwitch() {
  const { environment, switchEnvironment } = useSession();
  return (
    <fieldset className="env-switch">
      <legend className="visually-hidden">{t('layout.environment')}</legend>
      {(['sandbox', 'production'] as const).map((value) => (
        <label key={value} className={environment === value ? 'on' : undefined}>
          <input type="radio" name="environment" value={value} checked={environment === value} onChange={() => switchEnvironment(value)} />
          {value === 'sandbox' ? t('layout.sandbox') : t('layout.production')}
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
      <span className="visually-hidden">{t('layout.organization')}</span>
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
        {t('layout.skip')}
      </a>
      <header>
        <div className="top">
        <span className="brand">Billow</span>
        <OrganizationPicker />
        <EnvironmentSwitch />
        <span className="who">
          {session.user.email}
          {membership ? <span className="role"> ({t(`role.${membership.role}`)})</span> : null}
        </span>
        <button type="button" className="link" onClick={() => void signOut()}>
          {t('layout.signOut')}
        </button>
        </div>
        {environment === 'sandbox' ? (
          <p className="env-banner" role="note">
            {t('layout.sandboxBanner')}
          </p>
        ) : (
          <p className="env-banner env-banner-live" role="note">
            {t('layout.productionBanner')}
          </p>
        )}
      </header>
      <div className="body">
        <nav className="side" aria-label={t('layout.navigation')}>
          <ul>
            {NAV.map(([to, label]) => (
              <li key={to}>
                <NavLink to={to} end={to === '/'}>
                  {t(label)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          {membership ? <Outlet /> : <p>{t('layout.noMembership')}</p>}
        </main>
      </div>
    </div>
  );
}
