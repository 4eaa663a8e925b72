import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { Invitation, Member, SellerProfile } from '@billow/contract';
import { api, type Page } from '../api';
import { useAction, useResource } from '../data';
import { when, words } from '../format';
import { useCan, useSession, type Role } from '../session';
import { Checkbox, ErrorNote, Field, Loading, Notice, PageTitle, Section, Select, Table } from '../ui/kit';
import { AccountSecurity, YourLanguage, YourSessions } from './Account';
import { ReportingSettings } from './AnalyticsReporting';
import { AuditLog } from './AuditLog';

/** The seller profile in a line, and the way to its page (pages/SellerProfile.tsx). */
function Profile({ canWrite }: { canWrite: boolean }) {
  const profile = useResource(() => api<SellerProfile>('GET', '/seller-profile/'), []);
  return (
    <Section title="Seller profile">
      <ErrorNote error={profile.error} />
      <p>
        {profile.data ? <strong>{profile.data.legalName ?? profile.data.displayName}. </strong> : null}
        The name, address, tax registrations, logo and links that checkout pages, invoices and emails show.
      </p>
      <p>
        <Link to="/settings/profile">{canWrite ? 'Edit the seller profile' : 'See the seller profile'}</Link>
      </p>
    </Section>
  );
}

type EmailSettings = Record<string, boolean | number>;

function EmailSwitches({ canWrite }: { canWrite: boolean }) {
  const settings = useResource(() => api<EmailSettings>('GET', '/email-settings/'), []);
  const save = useAction((patch: EmailSettings) => api<EmailSettings>('PATCH', '/email-settings/', { body: patch }));
  const data = save.result ?? settings.data;
  return (
    <Section title="Emails to buyers">
      <ErrorNote error={settings.error ?? save.error} />
      {data
        ? Object.entries(data)
            .filter(([, value]) => typeof value === 'boolean')
            .map(([name, value]) => <Checkbox key={name} label={words(name.replace(/([A-Z])/g, '_$1'))} checked={value as boolean} disabled={!canWrite || save.busy} onChange={(on) => void save.perform({ [name]: on })} />)
        : null}
    </Section>
  );
}

const ROLES: Array<[Role, string]> = [['owner', 'Owner'], ['admin', 'Admin'], ['developer', 'Developer'], ['support', 'Support'], ['viewer', 'Viewer']];
const rowsOf = <T,>(value: Page<T> | T[]): T[] => (Array.isArray(value) ? value : value.results);

function Team({ canWrite }: { canWrite: boolean }) {
  const { session } = useSession();
  const team = useResource(async () => {
    const [members, invitations] = await Promise.all([api<Page<Member> | Member[]>('GET', '/members/'), api<Page<Invitation> | Invitation[]>('GET', '/invitations/')]);
    return { members: rowsOf(members), invitations: rowsOf(invitations) };
  }, []);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('support');
  const invite = useAction(() => api<Invitation>('POST', '/members/', { body: { email, role } }));
  const change = useAction((id: string, next: Role) => api('PATCH', `/members/${id}/`, { body: { role: next } }));
  const remove = useAction((id: string) => api('DELETE', `/members/${id}/`));
  const revoke = useAction((id: string) => api('DELETE', `/invitations/${id}/`));
  const after = (r: unknown) => r !== undefined && team.reload();
  return (
    <Section title="Team and roles">
      <ErrorNote error={team.error ?? change.error ?? remove.error ?? revoke.error} />
      <Table
        caption="Members"
        rows={team.data?.members}
        rowKey={(m) => m.id}
        empty="No members."
        columns={[
          { title: 'Member', cell: (m) => `${m.name} ${m.email}`.trim() },
          {
            title: 'Role',
            cell: (m) =>
              canWrite && m.email !== session?.user.email ? (
                <select aria-label={`Role of ${m.email}`} value={m.role} onChange={(e) => void change.perform(m.id, e.target.value as Role).then(after)}>
                  {ROLES.map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              ) : (
                words(m.role)
              ),
          },
          {
            title: 'Actions',
            cell: (m) =>
              canWrite && m.email !== session?.user.email ? (
                <button type="button" className="danger" onClick={() => void remove.perform(m.id).then(after)}>
                  Remove<span className="visually-hidden"> {m.email}</span>
                </button>
              ) : null,
          },
        ]}
      />
      {team.data && team.data.invitations.length > 0 ? (
        <Table
          caption="Open invitations"
          rows={team.data.invitations}
          rowKey={(i) => i.id}
          empty=""
          columns={[
            { title: 'Invited', cell: (i) => i.email },
            { title: 'Role', cell: (i) => words(i.role) },
            { title: 'Expires', cell: (i) => when(i.expiresOn) },
            {
              title: 'Actions',
              cell: (i) =>
                canWrite ? (
                  <button type="button" className="secondary" onClick={() => void revoke.perform(i.id).then(after)}>
                    Revoke<span className="visually-hidden"> invitation of {i.email}</span>
                  </button>
                ) : null,
            },
          ]}
        />
      ) : null}
      {canWrite ? (
        <form
          className="row-form"
          aria-label="Invite a member"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            void invite.perform().then((r) => {
              if (r === undefined) return;
              setEmail('');
              team.reload();
            });
          }}
        >
          <Field label="Email of the new member" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <Select label="Role" options={ROLES} value={role} onChange={(e) => setRole(e.target.value as Role)} />
          <button type="submit" disabled={invite.busy}>
            Send invitation
          </button>
          <ErrorNote error={invite.error} />
          {invite.result && !invite.busy && !invite.error ? (
            invite.result.acceptUrl ? (
              <Notice>
                This installation sends no email: give {invite.result.email} this link yourself (it works once): <code className="secret">{invite.result.acceptUrl}</code>
              </Notice>
            ) : (
              <Notice>Invitation sent to {invite.result.email}.</Notice>
            )
          ) : null}
        </form>
      ) : null}
    </Section>
  );
}

export function Settings() {
  const canWrite = useCan('settings');
  const canTeam = useCan('team');
  const canAudit = useCan('audit');
  const { membership } = useSession();
  return (
    <>
      <PageTitle>Settings</PageTitle>
      <Loading loading={!membership} />
      <Profile canWrite={canWrite} />
      <EmailSwitches canWrite={canWrite} />
      <ReportingSettings canWrite={canWrite} />
      <Team canWrite={canTeam} />
      {canAudit ? <AuditLog /> : null}
      <YourLanguage />
      <AccountSecurity />
      <YourSessions />
    </>
  );
}
