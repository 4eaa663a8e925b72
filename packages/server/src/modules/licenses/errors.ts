import { conflict, notFound } from '../../lib/domain-error.js';

/**
 * A refusal answered with the reference's body rather than the usual
 * `{detail, code}`: `{error}` for activation and deactivation (with `detail`
 * and `code` beside it, since the official client reads `message || detail`),
 * and field errors (`{"licenseKey": ["This field is required."]}`) for 400s.
 */
export class LicenseProblem extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.detail === 'string' ? body.detail : 'license problem');
  }
}

const refusal = (status: number, code: string, message: string) =>
  new LicenseProblem(status, { error: message, detail: message, code });

export const keyOrCustomerNotFound = () => refusal(404, 'license_not_found', 'Invalid license key or customer ID.');
export const keyOrInstanceNotFound = () => refusal(404, 'instance_not_found', 'Invalid license key or instance ID.');
export const instanceAlreadyDeactivated = (at: Date) =>
  refusal(404, 'instance_already_deactivated', `This license instance was already deactivated (at ${at.toISOString()}).`);
export const licenseExpired = () => refusal(403, 'license_expired', 'This license has expired.');
export const licenseDisabled = () => refusal(403, 'license_disabled', 'This license has been disabled.');
export const activationLimitReached = (used: number, limit: number) =>
  refusal(403, 'activation_limit_reached', `Activation limit reached (${used}/${limit}).`);
/** The dashboard's refusals (POST /customers/{customerId}/licenses/{licenseId}/instances/{instanceId}/deactivate/), in the usual `{detail, code}`. */
export const customerLicenseNotFound = (customerId: string) =>
  notFound(`No license key with this id belongs to the customer ${customerId} here.`, 'license_not_found');
export const customerInstanceNotFound = () => notFound('The license key has no instance with this id.', 'instance_not_found');
export const customerInstanceAlreadyFreed = (at: Date) =>
  conflict(`This machine was already freed (at ${at.toISOString()}); nothing changed.`, 'instance_already_deactivated');
export const activationFailed = () =>
  refusal(500, 'internal_error', 'An error occurred during activation processing.');

/** A 400 naming one field, in the reference's shape and ours. */
export function fieldProblem(field: string, message: string, detail: string): LicenseProblem {
  return new LicenseProblem(400, { detail, code: 'validation_error', [field]: [message] });
}

interface AjvIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

const REQUEST_FIELDS = new Set(['licenseKey', 'customerId', 'instanceName', 'metadata', 'instanceId']);

/** The message Django REST Framework gives for the same mistake, which the reference's clients may show. */
function drfMessage(issue: AjvIssue, value: unknown): string {
  switch (issue.keyword) {
    case 'required':
      return 'This field is required.';
    case 'additionalProperties':
      return 'This field is not allowed.';
    case 'minLength':
      return 'This field may not be blank.';
    case 'maxLength':
      return `Ensure this field has no more than ${String(issue.params.limit)} characters.`;
    case 'pattern':
      return 'Must be a valid UUID.';
    case 'type':
      if (value === null) return 'This field may not be null.';
      if (issue.params.type === 'object') return 'Expected a dictionary of items.';
      return 'Not a valid string.';
    default:
      return issue.message ?? 'This value is not valid.';
  }
}

/** Turns the body's schema validation issues into the reference's field errors; `detail` is the sentence the API gives for them. */
export function validationProblem(issues: AjvIssue[], body: unknown, detail: string): LicenseProblem {
  if (body === undefined || body === null) {
    return fieldProblem('licenseKey', 'This field is required.', 'licenseKey is required');
  }
  if (typeof body !== 'object' || Array.isArray(body)) {
    const kind = Array.isArray(body) ? 'list' : typeof body;
    return fieldProblem('nonFieldErrors', `Invalid data. Expected a dictionary, but got ${kind}.`, 'The request body must be a JSON object');
  }
  const relevant = issues.filter((i) => i.keyword !== 'anyOf' && i.keyword !== 'if');
  const issue = relevant.find((i) => i.keyword !== 'type' || relevant.length === 1) ?? relevant[0];
  if (!issue) return new LicenseProblem(400, { detail, code: 'validation_error' });
  const parts = issue.instancePath.split('/').filter(Boolean);
  let field = parts[0];
  if (issue.keyword === 'required' && parts.length === 0) field = String(issue.params.missingProperty);
  if (issue.keyword === 'additionalProperties' && parts.length === 0) field = String(issue.params.additionalProperty);
  const value = field === undefined ? undefined : (body as Record<string, unknown>)[field];
  // A field the request does not define could be named like ours (detail, code): keep it out of the keys.
  const key = field !== undefined && REQUEST_FIELDS.has(field) ? field : 'nonFieldErrors';
  const message = key === 'nonFieldErrors' && field !== undefined ? `${field}: ${drfMessage(issue, value)}` : drfMessage(issue, value);
  return new LicenseProblem(400, { detail, code: 'validation_error', [key]: [message] });
}
