import { createContext, Fragment, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { DashboardLanguage, Role, Session } from '@billow/contract';
import { chooseLanguage, languageFor, navigatorLanguages, type Language } from './i18n/language';
import { account, currentEnvironment, setEnvironment, setSessionCredentials, type Environment } from './api';

export type { Role, Session };
export type Membership = Session['memberships'][number];

interface SessionState {
  /** undefined while the first check runs; null when signed out. */
  session: Session | null | undefined;
  membership: Membership | null;
  environment: Environment;
  signedIn(session: Session): void;
  signOut(): Promise<void>;
  chooseOrganization(organizationId: string): void;
  switchEnvironment(environment: Environment): void;
  /** The language the page speaks: the person's choice, else the browser's, else English. */
  language: Language;
  /** Keeps the person's choice on their account (null: the browser's languages again); the page follows at once. */
  setLanguage(language: DashboardLanguage | null): Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);
const ORGANIZATION_KEY = 'billow.dashboard.organization';

function pickMembership(session: Session | null | undefined, wanted: string | null): Membership | null {
  if (!session) return null;
  return session.memberships.find((m) => m.organizationId === wanted) ?? session.memberships[0] ?? null;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [organizationId, setOrganizationId] = useState<string | null>(() => window.localStorage.getItem(ORGANIZATION_KEY));
  const [environment, setEnv] = useState<Environment>(currentEnvironment());
  const membership = pickMembership(session, organizationId);
  // The credentials every API call sends follow the session and the chosen organization.
  setSessionCredentials(session?.csrfToken ?? null, membership?.organizationId ?? null);
  const language = languageFor(session?.user.language, navigatorLanguages());
  chooseLanguage(language);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  useEffect(() => {
    // The first check only fills an empty state: a sign-in that answered meanwhile (the welcome link) wins.
    account<Session>('GET', '/session').then(
      (found) => setSession((known) => (known === undefined ? found : known)),
      () => setSession((known) => (known === undefined ? null : known)),
    );
  }, []);

  const signedIn = useCallback((next: Session) => setSession(next), []);
  const signOut = useCallback(async () => {
    try {
      await account('POST', '/sign-out');
    } finally {
      setSession(null);
    }
  }, []);
  const chooseOrganization = useCallback((id: string) => {
    window.localStorage.setItem(ORGANIZATION_KEY, id);
    setOrganizationId(id);
  }, []);
  const switchEnvironment = useCallback((next: Environment) => {
    setEnvironment(next);
    setEnv(next);
  }, []);

  const setLanguage = useCallback(async (next: DashboardLanguage | null) => {
    await account('PUT', '/language', { language: next });
    setSession((known) => (known ? { ...known, user: { ...known.user, language: next } } : known));
  }, []);

  const value = useMemo(
    () => ({ session, membership, environment, signedIn, signOut, chooseOrganization, switchEnvironment, language, setLanguage }),
    [session, membership, environment, signedIn, signOut, chooseOrganization, switchEnvironment, language, setLanguage],
  );
  // Every page draws its words again in the new language: the tree below starts afresh when it changes.
  return (
    <SessionContext.Provider value={value}>
      <Fragment key={language}>{children}</Fragment>
    </SessionContext.Provider>
  );
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}

/**
 * What each role may change, mirroring the server's table (packages/server/src/modules/accounts/roles.ts,
 * docs/dashboard.md "Roles"). The server refuses what a role may not do; the page only leaves the button out.
 */
const WRITERS: Record<string, Role[]> = {
  customers: ['owner', 'admin', 'developer', 'support'],
  subscriptions: ['owner', 'admin', 'developer', 'support'],
  catalog: ['owner', 'admin', 'developer'],
  selling: ['owner', 'admin', 'developer'],
  developers: ['owner', 'admin', 'developer'],
  keys: ['owner', 'admin'],
  money: ['owner', 'admin'],
  settings: ['owner', 'admin'],
  team: ['owner', 'admin'],
  audit: ['owner', 'admin'],
};

export function useCan(action: keyof typeof WRITERS | string): boolean {
  const { membership } = useSession();
  return !!membership && (WRITERS[action] ?? []).includes(membership.role);
}
