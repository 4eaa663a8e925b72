import { type DomainError, invalid, conflict, notFound } from '../../lib/domain-error.js';

export const duplicateExternalId = (externalId: string): DomainError =>
  invalid(`An organization with externalId "${externalId}" already exists`, 'duplicate_external_id');
export const duplicateEmail = (email: string): DomainError =>
  conflict(`An account with email "${email}" already exists`, 'email_exists');
export const organizationNotFound = (id: string): DomainError =>
  notFound(`No organization ${id} provisioned by this partner`, 'organization_not_found');
export const externalIdNotFound = (externalId: string): DomainError =>
  notFound(`No organization with externalId "${externalId}"`, 'organization_not_found');
