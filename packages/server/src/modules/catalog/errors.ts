import { type ApiError, badRequest, conflict, notFound } from '../../http/errors.js';

export const productNotFound = (id: string) => notFound(`No product "${id}"`, 'product_not_found');
export const featureNotFound = (id: string) => notFound(`No feature "${id}"`, 'feature_not_found');
export const planNotFound = (identifier: string) => notFound(`No plan "${identifier}"`, 'plan_not_found');
export const versionNotFound = (identifier: string, version: number) =>
  notFound(`Plan "${identifier}" has no version ${version}`, 'plan_version_not_found');
export const identifierTaken = (kind: string, identifier: string) =>
  conflict(`A ${kind} with identifier "${identifier}" already exists`, 'identifier_taken');
export const alreadyArchived = (kind: string, id: string) =>
  badRequest(`The ${kind} "${id}" is already archived`, 'already_archived');
export const archivedParent = (kind: string, id: string) =>
  badRequest(`The ${kind} "${id}" is archived and can't be changed`, 'archived');
export const invalid = (detail: string): ApiError => badRequest(detail, 'validation_error');
