import type { Invitation, Member, MemberInvite } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction, type Tx } from '../../db/transaction.js';
import type { MemberRole } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import type { PageRequest } from '../../lib/pagination.js';
import { newSecretToken, tokenHash } from '../../lib/session-tokens.js';
import { recordAudit, type AuditableScope } from '../audit/queries.js';
import type { MailOutbox } from '../mail/queries.js';
import { alreadyMember, invitationNotFound, lastOwner, memberNotFound, onlyOwnersManageOwners } from './errors.js';
import type { PageLanguage } from '../../page-kit/i18n.js';
import { pageLanguageOf } from '../../page-kit/locale.js';
import { invitationMessage } from './messages.js';
import { queuePeopleMail } from './people-mail.js';
import * as repo from './repo.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const INVITATION_MS = 7 * 24 * 60 * 60 * 1000;

/** Who manages the team: a request's scope, with the signed-in person (none for a server key, which may do what an owner may). */
export interface TeamScope extends AuditableScope {
  organizationId: string;
  person?: { userId: string; email: string; role: MemberRole } | null;
}

const memberView = (row: repo.MemberRow): Member => ({
  id: row.id,
  userId: row.user_id,
  email: row.email,
  name: row.name,
  role: row.role,
  createdOn: row.created_at.toISOString(),
});

const invitationView = (row: repo.InvitationRow): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  invitedBy: row.invited_by,
  createdOn: row.created_at.toISOString(),
  expiresOn: row.expires_at.toISOString(),
});

/** Only an owner (or a server key) may make, change or remove an owner. */
function checkOwnerRule(scope: TeamScope, roles: MemberRole[]): void {
  if (roles.includes('owner') && scope.person && scope.person.role !== 'owner') throw onlyOwnersManageOwners();
}

/** The organization's team: members and their roles, invitations by email (decision 0076). Every change is audited in its transaction. */
export class TeamService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly mail: MailOutbox,
  ) {}

  async members(organizationId: string, page: PageRequest) {
    const [count, rows] = await Promise.all([repo.countMembers(this.db, organizationId), repo.membersOf(this.db, organizationId, { limit: page.pageSize, offset: page.offset })]);
    return { count, results: rows.map(memberView) };
  }

  async invitations(organizationId: string, page: PageRequest) {
    const now = this.clock.now();
    const [count, rows] = await Promise.all([
      repo.countInvitations(this.db, organizationId, now),
      repo.invitationsOf(this.db, organizationId, now, { limit: page.pageSize, offset: page.offset }),
    ]);
    return { count, results: rows.map(invitationView) };
  }

  /** Invites an email with a role: a link to /dashboard/accept-invitation, mailed; an open invitation of the same email is replaced. */
  /** The invitation is written in the inviter's dashboard language, else their browser's: the team's language is the best guess for a new member's. */
  async invite(scope: TeamScope, input: MemberInvite, baseUrl: string, browser: PageLanguage | null = null): Promise<Invitation> {
    checkOwnerRule(scope, [input.role]);
    const email = input.email.trim().toLowerCase();
    const now = this.clock.now();
    const token = newSecretToken();
    const { invitation, messageId } = await inTransaction(this.db, async (tx) => {
      const user = await repo.findUserByEmail(tx, email);
      if (user && (await repo.findMembership(tx, scope.organizationId, user.id))) throw alreadyMember(email);
      await repo.revokeInvitationsOfEmail(tx, scope.organizationId, email, now);
      const row = { id: newId(), organization_id: scope.organizationId, email, role: input.role, token_hash: tokenHash(token), invited_by: scope.person?.userId ?? null, created_at: now, expires_at: new Date(now.getTime() + INVITATION_MS) };
      await repo.insertInvitation(tx, row);
      const view = invitationView(row);
      await recordAudit(tx, scope, { action: 'invitation.created', resourceType: 'invitation', resourceId: row.id, after: { email, role: input.role }, environmentId: null }, now);
      const organizationName = (await repo.organizationName(tx, scope.organizationId)) ?? '';
      const acceptUrl = `${baseUrl}/dashboard/accept-invitation?token=${token}`;
      const inviter = scope.person ? await repo.findUser(tx, scope.person.userId) : undefined;
      const message = invitationMessage(pageLanguageOf(inviter?.language) ?? browser ?? 'en', organizationName, scope.person?.email ?? null, input.role, acceptUrl);
      const id = await queuePeopleMail(tx, this.mail, { ...message, organizationId: scope.organizationId, to: email, sendBefore: row.expires_at });
      // Without SMTP nothing is mailed: the inviter, who may grant this role, hands the link over.
      return { invitation: this.mail.canSend('production') ? view : { ...view, acceptUrl }, messageId: id };
    });
    if (messageId) this.mail.deliverSoon(messageId);
    return invitation;
  }

  async revokeInvitation(scope: TeamScope, id: string): Promise<void> {
    const now = this.clock.now();
    if (!UUID.test(id)) throw invitationNotFound(id);
    await inTransaction(this.db, async (tx) => {
      const revoked = await repo.revokeInvitation(tx, scope.organizationId, id, now);
      if (!revoked) throw invitationNotFound(id);
      await recordAudit(tx, scope, { action: 'invitation.revoked', resourceType: 'invitation', resourceId: id, before: { email: revoked.email, role: revoked.role }, environmentId: null }, now);
    });
  }

  async updateRole(scope: TeamScope, membershipId: string, role: MemberRole): Promise<Member> {
    const now = this.clock.now();
    return inTransaction(this.db, async (tx) => {
      const member = await this.lockedMember(tx, scope, membershipId, [role]);
      if (member.role === 'owner' && role !== 'owner') await this.keepAnOwner(tx, scope.organizationId);
      await repo.setRole(tx, membershipId, role, now);
      await recordAudit(tx, scope, { action: 'member.role_changed', resourceType: 'member', resourceId: membershipId, before: { email: member.email, role: member.role }, after: { email: member.email, role }, environmentId: null }, now);
      return memberView({ ...member, role });
    });
  }

  /** Removes a member: every session of theirs stops authenticating this organization at once (each request reads the membership). */
  async remove(scope: TeamScope, membershipId: string): Promise<void> {
    const now = this.clock.now();
    await inTransaction(this.db, async (tx) => {
      const member = await this.lockedMember(tx, scope, membershipId, []);
      if (member.role === 'owner') await this.keepAnOwner(tx, scope.organizationId);
      await repo.deleteMembership(tx, membershipId);
      await recordAudit(tx, scope, { action: 'member.removed', resourceType: 'member', resourceId: membershipId, before: { email: member.email, role: member.role }, environmentId: null }, now);
    });
  }

  private async lockedMember(tx: Tx, scope: TeamScope, membershipId: string, newRoles: MemberRole[]) {
    await repo.lockOwners(tx, scope.organizationId);
    const member = UUID.test(membershipId) ? await repo.findMember(tx, scope.organizationId, membershipId, { forUpdate: true }) : undefined;
    if (!member) throw memberNotFound(membershipId);
    checkOwnerRule(scope, [member.role, ...newRoles]);
    return member;
  }

  private async keepAnOwner(tx: Tx, organizationId: string): Promise<void> {
    if ((await repo.lockOwners(tx, organizationId)) <= 1) throw lastOwner();
  }
}
