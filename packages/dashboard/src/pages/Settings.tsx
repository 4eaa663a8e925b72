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
import { hasMessage, t } from '../i18n/language';
import { AuditLog } from './AuditLog';

/** The seller profile in a line, and the way to its page (pages/SellerProfile.tsx). */
function Profile({ canWrite }: { canWrite: boolean }) {
  const profile = useResource(() => api<SellerProfile>('GET', '/seller-profile/'), []);
  return (
    <Section title={t('settings.profile')}>
      <ErrorNote error={profile.error} />
      <p>
        {profile.data ? <strong>{profile.data.legalName ?? profile.data.displayName}. </strong> : null}
        {t('settings.profileAbout')}
      </p>
      <p>
        <Link to="/settings/profile">{canWrite ? t('settings.editProfile') : t('settings.seeProfile')}</Link>
      </p>
    </Section>
  );
}

type EmailSettings = Record<string, boolean | number>;

/** An email switch's name in words ("paymentFailed": "Payment failed"); one the dashboard does not know yet still as words. */
function emailSettingWords(name: string): string {
  const key = `emailSetting.${name}`;
  return hasMessage(key) ? t(key) : words(name.replace(/([A-Z])/g, '_$1'));
}

function EmailSwitches({ canWrite }: { canWrite: boolean }) {
  const settings = useResource(() => api<EmailSettings>('GET', '/email-settings/'), []);
  const save = useAction((patch: EmailSettings) => api<EmailSettings>('PATCH', '/email-settings/', { body: patch }));
  const data = save.result ?? settings.data;
  return (
    <Section title={t('settings.emails')}>
      <ErrorNote error={settings.error ?? save.error} />
      {data
        ? Object.entries(data)
            .filter(([, value]) => typeof value === 'boolean')
            .map(([name, value]) => <Checkbox key={name} label={emailSettingWords(name)} checked={value as boolean} disabled={!canWrite || save.busy} onChange={(on) => void save.perform({ [name]: on })} />)
        : null}
    </Section>
  );
}

const roles = (): Array<[Role, string]> => (['owner', 'admin', 'developer', 'support', 'viewer'] as const).map((role): [Role, string] => [role, words(role)]);
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
    <Section title={t('settings.team')}>
      <ErrorNote error={team.error ?? change.error ?? remove.error ?? revoke.error} />
      <Table
        caption={t('settings.members')}
        rows={team.data?.members}
        rowKey={(m) => m.id}
        empty={t('settings.noMembers')}
        columns={[
          { title: t('settings.member'), cell: (m) => `${m.name} ${m.email}`.trim() },
          {
            title: t('settings.role'),
            cell: (m) =>
              canWrite && m.email !== session?.user.email ? (
                <select aria-label={t('settings.roleOf', { email: m.email })} value={m.role} onChange={(e) => void change.perform(m.id, e.target.value as Role).then(after)}>
                  {roles().map(([value, label]) => (
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
            title: t('common.actions'),
            cell: (m) =>
              canWrite && m.email !== session?.user.email ? (
                <button type="button" className="danger" onClick={() => void remove.perform(m.id).then(after)}>
                  {t('settings.remove')}<span className="visually-hidden"> {m.email}</span>
                </button>
              ) : null,
          },
        ]}
      />
      {team.data && team.data.invitations.length > 0 ? (
        <Table
          caption={t('settings.openInvitations')}
          rows={team.data.invitations}
          rowKey={(i) => i.id}
          empty=""
          columns={[
            { title: t('settings.invited'), cell: (i) => i.email },
            { title: t('settings.role'), cell: (i) => words(i.role) },
            { title: t('common.expires'), cell: (i) => when(i.expiresOn) },
            {
              title: t('common.actions'),
              cell: (i) =>
                canWrite ? (
                  <button type="button" className="secondary" onClick={() => void revoke.perform(i.id).then(after)}>
                    {t('settings.revoke')}<span className="visually-hidden"> {t('settings.invitationOf', { email: i.email })}</span>
                  </button>
                ) : null,
            },
          ]}
        />
      ) : null}
      {canWrite ? (
        <form
          className="row-form"
          aria-label={t('settings.inviteForm')}
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            void invite.perform().then((r) => {
              if (r === undefined) return;
              setEmail('');
              team.reload();
            });
          }}
        >
          <Field label={t('settings.newMemberEmail')} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <Select label={t('settings.role')} options={roles()} value={role} onChange={(e) => setRole(e.target.value as Role)} />
          <button type="submit" disabled={invite.busy}>
            {t('settings.sendInvitation')}
          </button>
          <ErrorNote error={invite.error} />
          {invite.result && !invite.busy && !invite.error ? (
            invite.result.acceptUrl ? (
              <Notice>
                {t('settings.noEmail', { email: invite.result.email })} <code className="secret">{invite.result.acceptUrl}</code>
              </Notice>
            ) : (
              <Notice>{t('settings.invitationSent', { email: invite.result.email })}</Notice>
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
      <PageTitle>{t('settings.title')}</PageTitle>
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
