import {
  CustomerLicenseInstancePath,
  ErrorBody,
  LicenseActivate,
  LicenseActivation,
  LicenseDeactivate,
  LicenseDeactivation,
  LicenseErrorBody,
  LicenseFieldErrors,
  LicenseInstanceFreed,
  LicenseValidate,
  LicenseValidation,
} from '@billow/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import { describeValidation } from '../../http/errors.js';
import { DomainError } from '../../lib/domain-error.js';
import { SERVER_ONLY, SERVER_OR_CLIENT, type App } from '../../http/route-types.js';
import { activationFailed, LicenseProblem, validationProblem } from './errors.js';
import { LicenseService } from './service.js';
import { scopeOf } from '../../http/scope.js';
import { answerKeeper } from '../../http/idempotency.js';

const tags = ['License keys'];
/** Authentication, and an Idempotency-Key reused with another body. */
const common = { 401: ErrorBody, 409: ErrorBody };
/**
 * Every copy of an app ships the same client key, so a client key's license calls
 * are counted per caller address (and per key), not all together; server keys
 * are counted per key. Each license route keeps its own counters.
 */
const rateLimit = {
  keyGenerator: (request: FastifyRequest) => {
    if (!request.auth) return `ip:${request.ip}`;
    return request.auth.kind === 'client' ? `${request.auth.keyId}:ip:${request.ip}` : request.auth.keyId;
  },
};
const KEYS =
  'Takes a server key or a client key of the environment: an application on a customer\'s machine can ship with the client key, ' +
  'and the license key itself is what it proves; client-key calls are rate-limited per caller address. ' +
  'A key is looked up in the environment of the request only.';

/**
 * Validation problems are answered by the handler (attachValidation), in the
 * reference's field-error shape; refusals in its `{error}` shape.
 */
async function answer<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  work: () => Promise<T>,
  unexpected?: () => LicenseProblem,
): Promise<T | FastifyReply> {
  try {
    if (request.validationError) {
      const issues = (request.validationError as { validation?: unknown }).validation;
      const found = Array.isArray(issues) ? issues : [];
      throw validationProblem(found, request.body, describeValidation(found, 'body'));
    }
    return await work();
  } catch (error) {
    if (error instanceof LicenseProblem) return reply.code(error.status).send(error.body);
    if (!unexpected || error instanceof DomainError) throw error;
    request.log.error({ err: error }, 'license activation failed');
    const problem = unexpected();
    return reply.code(problem.status).send(problem.body);
  }
}

export function licenseRoutes(app: App, deps: { db: Db; clock: Clock }): void {
  const service = new LicenseService(deps.db, deps.clock);

  app.post(
    '/api/v1/license/activate/',
    {
      config: { auth: SERVER_OR_CLIENT, rateLimit },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Activate a license key on an instance (a machine)',
        description:
          'Creates an instance of the key and answers 201. Refused with 404 when the key is unknown in this environment or ' +
          '`customerId` is not its owner; with 403 when the key is disabled, expired (expiry counts from the purchase) or has as ' +
          'many active instances as its activation limit allows. Without an activation limit, activations are unlimited. ' +
          'Refusals carry `{error, detail, code}`. ' +
          KEYS,
        body: LicenseActivate,
        response: {
          201: LicenseActivation,
          400: LicenseFieldErrors,
          403: LicenseErrorBody,
          404: LicenseErrorBody,
          500: LicenseErrorBody,
          ...common,
        },
      },
    },
    async (request, reply) =>
      answer(
        request,
        reply,
        async () => reply.code(201).send(await service.activate(scopeOf(request), request.body, answerKeeper(request, reply, 201))),
        activationFailed,
      ),
  );

  app.post(
    '/api/v1/license/deactivate/',
    {
      config: { auth: SERVER_OR_CLIENT, rateLimit },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Deactivate one instance of a license key',
        description:
          'Frees the activation the instance held; the key stays valid. 404 when the key and instance do not match, and with ' +
          'code `instance_already_deactivated` when the instance was deactivated before. ' +
          KEYS,
        body: LicenseDeactivate,
        response: { 200: LicenseDeactivation, 400: LicenseFieldErrors, 404: LicenseErrorBody, ...common },
      },
    },
    async (request, reply) => answer(request, reply, async () => service.deactivate(scopeOf(request), request.body, answerKeeper(request, reply, 200))),
  );

  app.post(
    '/api/v1/license/validate/',
    {
      config: { auth: SERVER_OR_CLIENT, rateLimit },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Validate a license key, and optionally one of its instances',
        description:
          '200 with `valid: true` and code `VALID`; 200 with `valid: false` and code `EXPIRED` or `INVALID` (disabled) when the ' +
          'key exists but may not be used; 404 with a validation body and code `INVALID_KEY` or `INSTANCE_NOT_FOUND` (unknown or ' +
          "deactivated instance). Validating an active instance records when it was last seen and returns the instance's metadata. " +
          KEYS,
        body: LicenseValidate,
        response: { 200: LicenseValidation, 400: LicenseFieldErrors, 404: LicenseValidation, ...common },
      },
    },
    async (request, reply) =>
      answer(request, reply, async () => {
        const { status, body } = await service.validate(scopeOf(request), request.body);
        return reply.code(status).send(body);
      }),
  );

  app.post(
    '/api/v1/customers/:customerId/licenses/:licenseId/instances/:instanceId/deactivate/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: "Free a machine of a customer's license key",
        description:
          'Billow extension (issue 29): what POST /license/deactivate/ does, the key and the instance named by their ids as ' +
          'GET /customers/{customerId}/licenses/ lists them, for the seller (a server key, or a session whose role may change ' +
          'customers: owner, admin, developer, support). The key must be this customer\'s in this environment (404 `license_not_found` ' +
          'otherwise), the instance one of the key\'s (404 `instance_not_found`). A machine freed before is 409 ' +
          '`instance_already_deactivated`, and nothing changes. Audited as `license.instance_deactivated`.',
        params: CustomerLicenseInstancePath,
        response: { 200: LicenseInstanceFreed, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, ...common },
      },
    },
    async (request, reply) => service.deactivateForCustomer(scopeOf(request), request.params, answerKeeper(request, reply, 200)),
  );
}
