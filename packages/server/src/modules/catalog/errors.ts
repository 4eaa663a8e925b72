import { type DomainError, invalid as invalidRequest, conflict, notFound } from '../../lib/domain-error.js';

export const productNotFound = (id: string) => notFound(`No product "${id}"`, 'product_not_found');
export const featureNotFound = (id: string) => notFound(`No feature "${id}"`, 'feature_not_found');
export const planNotFound = (identifier: string) => notFound(`No plan "${identifier}"`, 'plan_not_found');
export const versionNotFound = (identifier: string, version: number) =>
  notFound(`Plan "${identifier}" has no version ${version}`, 'plan_version_not_found');
export const versionNotNewest = (identifier: string, version: number, newest: number) =>
  invalidRequest(
    `Plan "${identifier}" version ${version} is not its newest version (${newest}): only the newest takes changes (a published one through a new draft), older versions never change`,
    'plan_version_not_newest',
  );
export const versionNotTargetable = (action: string) =>
  invalidRequest(`The query parameter version does not apply here: ${action}`, 'version_not_supported');
export const identifierTaken = (kind: string, identifier: string) =>
  conflict(`A ${kind} with identifier "${identifier}" already exists`, 'identifier_taken');
export const alreadyArchived = (kind: string, id: string) =>
  invalidRequest(`The ${kind} "${id}" is already archived`, 'already_archived');
export const archivedParent = (kind: string, id: string) =>
  invalidRequest(`The ${kind} "${id}" is archived and can't be changed`, 'archived');
export const invalid = (detail: string): DomainError => invalidRequest(detail, 'validation_error');
export const priceCurrencyMissing = (currency: string): DomainError => notFound(`The plan has no price in ${currency}`, 'price_not_found');
export const planProductArchived = () => invalidRequest(`The plan's product is archived`, 'archived');
export const nothingToPublish = (identifier: string, newestVersion: number | undefined) =>
  invalidRequest(`Plan "${identifier}" has no draft to publish: version ${newestVersion} is already published`, 'nothing_to_publish');
export const noEnabledPrice = (identifier: string, version: number) =>
  invalidRequest(
    `Plan "${identifier}" version ${version} has no enabled price; add one with POST .../prices/bulk/ first`,
    'no_enabled_price',
  );
export const nothingToDiscard = (identifier: string) =>
  invalidRequest(`Plan "${identifier}" has no draft to discard: its latest version is published`, 'nothing_to_discard');
export const planFileNotFound = (identifier: string, fileId: string) =>
  notFound(`Plan "${identifier}" has no file "${fileId}"`, 'file_not_found');
export const entitlementNotFound = (identifier: string, featureIdentifier: string) =>
  notFound(`Plan "${identifier}" does not grant "${featureIdentifier}"`, 'entitlement_not_found');
export const productFileNotFound = (productId: string, fileId: string) =>
  notFound(`Product "${productId}" has no file "${fileId}"`, 'file_not_found');
export const productImageNotFound = (ref: string, imageId: string) =>
  notFound(`Product "${ref}" has no image "${imageId}"`, 'image_not_found');
