import { type ApiError, badRequest, conflict, notFound } from '../../http/errors.js';

export const duplicateExternalId = (externalId: string): ApiError =>
  badRequest(`An organization with externalId "${externalId}" already exists`, 'duplicate_external_id');
export const duplicateEmail = (email: string): ApiError =>
  conflict(`An account with email "${email}" already exists`, 'email_exists');
export const organizationNotFound = (id: string): ApiError =>
  notFound(`No organization ${id} provisioned by this partner`, 'organization_not_found');
export const externalIdNotFound = (externalId: string): ApiError =>
  notFound(`No organization with externalId "${externalId}"`, 'organization_not_found');
