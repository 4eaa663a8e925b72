import { Type, type Static } from 'typebox';
import { Paginated } from './common.js';

/** Billow's own resources, not in the Kelviq API: the seller's people, their sessions, team and audit log (issue 29). */

export const ROLES = ['owner', 'admin', 'developer', 'support', 'viewer'] as const;
export const Role = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('developer'), Type.Literal('support'), Type.Literal('viewer')], {
  description: 'What a member may do in the organization: see "Roles" in docs/dashboard.md',
});
export type Role = Static<typeof Role>;

const Email = Type.String({ format: 'email', maxLength: 254 });
const Password = Type.String({ minLength: 1, maxLength: 1024 });
const NewPassword = Type.String({ minLength: 10, maxLength: 1024, description: 'At least 10 characters' });
const Token = Type.String({ minLength: 1, maxLength: 200 });
/** The languages of the dashboard: those of the hosted pages and emails. */
export const DASHBOARD_LANGUAGES = ['en', 'de', 'fr', 'es', 'ja'] as const;
export const DashboardLanguage = Type.Union([Type.Literal('en'), Type.Literal('de'), Type.Literal('fr'), Type.Literal('es'), Type.Literal('ja')], {
  description: 'A language of the dashboard: en, de, fr, es or ja',
});
export type DashboardLanguage = Static<typeof DashboardLanguage>;

const TotpCode = Type.String({ pattern: '^[0-9]{6}$', description: 'The six digits the authenticator app shows' });

export const SessionUser = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    name: Type.String(),
    totpEnabled: Type.Boolean(),
    language: Type.Union([DashboardLanguage, Type.Null()], {
      description: "The dashboard's language the person chose; null: the browser's languages decide, else English",
    }),
  },
  { title: 'SessionUser' },
);

export const SessionMembership = Type.Object(
  { organizationId: Type.String({ format: 'uuid' }), organizationName: Type.String(), role: Role },
  { title: 'SessionMembership' },
);

export const Session = Type.Object(
  {
    user: SessionUser,
    memberships: Type.Array(SessionMembership),
    csrfToken: Type.String({ description: 'Send it as the X-CSRF-Token header with every request the session authenticates' }),
  },
  { title: 'Session' },
);
export type Session = Static<typeof Session>;

export const SignIn = Type.Object(
  { email: Email, password: Password, totpCode: Type.Optional(TotpCode) },
  { additionalProperties: false, title: 'SignIn' },
);
export type SignIn = Static<typeof SignIn>;

export const TokenBody = Type.Object({ token: Token }, { additionalProperties: false, title: 'OneTimeToken' });

export const AcceptInvitation = Type.Object(
  { token: Token, name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }), password: NewPassword },
  { additionalProperties: false, title: 'AcceptInvitation' },
);
export type AcceptInvitation = Static<typeof AcceptInvitation>;

export const PasswordResetRequest = Type.Object({ email: Email }, { additionalProperties: false, title: 'PasswordResetRequest' });
export const PasswordReset = Type.Object({ token: Token, password: NewPassword }, { additionalProperties: false, title: 'PasswordReset' });
export const PasswordChange = Type.Object(
  {
    currentPassword: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Required once the account has a password' })),
    newPassword: NewPassword,
  },
  { additionalProperties: false, title: 'PasswordChange' },
);
export const LanguageChoice = Type.Object(
  { language: Type.Union([DashboardLanguage, Type.Null()], { description: "null: follow the browser's languages again" }) },
  { additionalProperties: false, title: 'LanguageChoice' },
);
export type LanguageChoice = Static<typeof LanguageChoice>;
export const TotpSetup = Type.Object({ secret: Type.String(), otpauthUrl: Type.String() }, { title: 'TotpSetup' });
export const TotpCodeBody = Type.Object({ code: TotpCode }, { additionalProperties: false, title: 'TotpCode' });

export const SessionInfo = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    createdOn: Type.String({ format: 'date-time' }),
    lastSeenOn: Type.String({ format: 'date-time' }),
    expiresOn: Type.String({ format: 'date-time', description: 'The absolute expiry; the session ends sooner when idle too long' }),
    clientAddress: Type.String(),
    userAgent: Type.String(),
    current: Type.Boolean({ description: 'True for the session that asks' }),
  },
  { title: 'SessionInfo' },
);
export const SessionList = Type.Object({ results: Type.Array(SessionInfo) }, { title: 'SessionList' });
export type SessionInfo = Static<typeof SessionInfo>;

export const Member = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'The membership' }),
    userId: Type.String({ format: 'uuid' }),
    email: Type.String(),
    name: Type.String(),
    role: Role,
    createdOn: Type.String({ format: 'date-time' }),
  },
  { title: 'Member' },
);
export type Member = Static<typeof Member>;
export const MemberList = Paginated(Member, 'MemberList');

export const MemberInvite = Type.Object({ email: Email, role: Role }, { additionalProperties: false, title: 'MemberInvite' });
export type MemberInvite = Static<typeof MemberInvite>;
export const MemberUpdate = Type.Object({ role: Role }, { additionalProperties: false, title: 'MemberUpdate' });

export const Invitation = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    role: Role,
    invitedBy: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    createdOn: Type.String({ format: 'date-time' }),
    expiresOn: Type.String({ format: 'date-time' }),
    acceptUrl: Type.Optional(
      Type.String({
        description:
          'Only in the answer that creates it, and only where this installation sends no email (no SMTP): the link to hand to the person yourself',
      }),
    ),
  },
  { title: 'Invitation' },
);
export type Invitation = Static<typeof Invitation>;
export const InvitationList = Paginated(Invitation, 'InvitationList');

/**
 * The changes Billow's services record by name in the audit log, with what changed (decision 0077).
 * Every other change made through the API is recorded as its operation, `AuditRouteAction`.
 */
export const AUDIT_ACTIONS = [
  'seller_profile.updated',
  'email_settings.updated',
  'payment_provider.updated',
  'payment_provider.removed',
  'api_key.created',
  'api_key.revoked',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.secret_rotated',
  'invitation.created',
  'invitation.revoked',
  'member.role_changed',
  'member.removed',
  'test_clock.customer_attached',
  'license.instance_deactivated',
  'analytics_settings.updated',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
/** A change recorded by its operation: the method and the route's pattern, e.g. `POST /api/v1/refunds/`. */
export type AuditRouteAction = `${'POST' | 'PUT' | 'PATCH' | 'DELETE'} /api/v1/${string}`;

export const AuditEntry = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    actorType: Type.Union([Type.Literal('user'), Type.Literal('api_key')]),
    actorId: Type.String({ description: "The user's id, or the key's visible prefix" }),
    actorLabel: Type.String({ description: "The user's email, or the key's prefix, as it was at the time" }),
    action: Type.String({
      description: `What was done: one of ${AUDIT_ACTIONS.join(', ')}; or the operation of any other change, e.g. "POST /api/v1/refunds/"`,
    }),
    resource: Type.String({ description: 'The kind of thing changed, e.g. seller_profile, refunds, members' }),
    resourceId: Type.Union([Type.String(), Type.Null()]),
    environment: Type.Union([Type.Literal('sandbox'), Type.Literal('production'), Type.Null()], {
      description: 'Where the change was made; null for the organization itself (its team)',
    }),
    before: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: 'Settings as they were' }),
    after: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: 'Settings as they became' }),
    clientAddress: Type.String(),
    createdOn: Type.String({ format: 'date-time' }),
  },
  { title: 'AuditEntry' },
);
export type AuditEntry = Static<typeof AuditEntry>;
export const AuditLog = Type.Object(
  {
    results: Type.Array(AuditEntry),
    next: Type.Union([Type.String(), Type.Null()], { description: 'The URL of the next (older) page; null on the last' }),
  },
  { title: 'AuditLog' },
);
export const AuditLogQuery = Type.Object(
  {
    actor_id: Type.Optional(Type.String({ maxLength: 200, description: 'The user id or key prefix (actorId is taken too)' })),
    action: Type.Optional(Type.String({ maxLength: 200 })),
    resource: Type.Optional(Type.String({ maxLength: 200 })),
    start: Type.Optional(Type.String({ format: 'date-time' })),
    end: Type.Optional(Type.String({ format: 'date-time' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

/** An API key of one environment, as the API lists it: never its secret nor its hash (issue 29, "Developers"). */
export const ApiKey = Type.Object(
  {
    prefix: Type.String({ description: 'The public head of the key (for example `sk_test_AbCd1234`): how a key is named, listed and revoked' }),
    kind: Type.Union([Type.Literal('server'), Type.Literal('client')], { description: 'server (secret, full access) or client (public, for browsers)' }),
    name: Type.Union([Type.String(), Type.Null()], { description: 'What the seller called the key, if anything' }),
    environment: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]),
    createdOn: Type.String({ format: 'date-time' }),
    revokedOn: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When it was revoked; null while it works' }),
  },
  { title: 'ApiKey' },
);
export type ApiKey = Static<typeof ApiKey>;
export const ApiKeyList = Paginated(ApiKey, 'ApiKeyList');

export const ApiKeyCreate = Type.Object(
  {
    kind: Type.Union([Type.Literal('server'), Type.Literal('client')]),
    name: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  },
  { additionalProperties: false, title: 'ApiKeyCreate' },
);
export type ApiKeyCreate = Static<typeof ApiKeyCreate>;

export const CreatedApiKey = Type.Object(
  { ...ApiKey.properties, key: Type.String({ description: 'The whole key: shown in this answer only, never again (it is stored as a hash)' }) },
  { title: 'CreatedApiKey' },
);
export type CreatedApiKey = Static<typeof CreatedApiKey>;
