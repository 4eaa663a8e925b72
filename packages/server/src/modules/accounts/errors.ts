import { conflict, DomainError, forbidden, invalid, notFound, unauthorized } from '../../lib/domain-error.js';

export const wrongCredentials = () => unauthorized('The email or the password is not right');
export const totpRequired = () => new DomainError('unauthorized', 'TOTP_REQUIRED', 'This account has a second factor: send totpCode, the six digits of the authenticator app');
export const wrongTotpCode = () => new DomainError('unauthorized', 'totp_invalid', 'The authenticator code is not right (or has expired)');
export const lockedOut = (minutes: number) =>
  new DomainError('too_many', 'locked_out', `Too many failed sign-ins: try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or reset the password by email`);
export const tooManyAttempts = () => new DomainError('too_many', 'too_many_sign_ins', 'Too many failed sign-ins from this address: wait a few minutes');
export const noSession = () => unauthorized('Not signed in, or the session has ended: sign in again');
export const tokenNotValid = (what: string) => new DomainError('unauthorized', 'token_invalid', `The ${what} link is not valid, was already used or has expired`);
export const csrfRequired = () =>
  unauthorized('A session authenticates only with its X-CSRF-Token header (the csrfToken of GET /dashboard/api/session)');
export const organizationRequired = () =>
  unauthorized('A session authenticates the API only with the X-Billow-Organization header: the id of one of your organizations');
export const notAMember = () => forbidden('You are not a member of this organization (X-Billow-Organization)');
export const roleMayNot = (role: string, what: string) => forbidden(`The ${role} role may not ${what}`);
export const serverKeyRoute = () => forbidden('This operation takes a client key; a session acts as a server key and may not use it');
export const currentPasswordRequired = () => invalid('currentPassword is required to change the password', 'validation_error');
export const totpNotSetUp = () => invalid('Start with POST /dashboard/api/totp/setup', 'totp_not_set_up');
export const totpAlreadyEnabled = () => conflict('The second factor is already enabled: disable it first', 'totp_enabled');
export const totpNotEnabled = () => invalid('The second factor is not enabled', 'totp_not_enabled');
export const sessionNotFound = (id: string) => notFound(`No session ${id} of yours`, 'session_not_found');
export const memberNotFound = (id: string) => notFound(`No member ${id} in this organization`, 'member_not_found');
export const invitationNotFound = (id: string) => notFound(`No open invitation ${id} in this organization`, 'invitation_not_found');
export const alreadyMember = (email: string) => conflict(`${email} is already a member of this organization`, 'already_member');
export const lastOwner = () => conflict('An organization keeps at least one owner: make another member owner first', 'last_owner');
export const onlyOwnersManageOwners = () => forbidden('Only an owner may make, change or remove an owner');
export const organizationNotFound = (id: string) => notFound(`No organization ${id}`, 'organization_not_found');
export const tooManyLinkRequests = (whose: string) =>
  new DomainError('too_many', 'too_many_link_requests', `Too many reset or sign-in links were asked for ${whose}: wait a while, then ask again, or use the link already mailed`);
