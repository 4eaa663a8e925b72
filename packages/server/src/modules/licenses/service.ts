import type {
  CustomerLicenseInstancePath,
  LicenseActivate,
  LicenseActivation,
  LicenseDeactivate,
  LicenseDeactivation,
  LicenseDetails,
  LicenseInstanceFreed,
  LicenseValidate,
  LicenseValidation,
} from '@billow/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction, type Executor } from '../../db/transaction.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import { metadataProblem } from '../../lib/metadata.js';
import { currencyDigits, formatMinor } from '../../lib/money.js';
import { recurrenceOf, recurrenceText } from '../billing/billing-periods.compute.js';
import {
  activationLimitReached,
  customerInstanceAlreadyFreed,
  customerInstanceNotFound,
  customerLicenseNotFound,
  fieldProblem,
  instanceAlreadyDeactivated,
  keyOrCustomerNotFound,
  keyOrInstanceNotFound,
  licenseDisabled,
  licenseExpired,
} from './errors.js';
import { keptAnswer, type AnswerKeeper } from '../../db/answer-keeper.js';
import * as repo from './repo.js';
import { recordAudit, type AuditableScope } from '../audit/queries.js';
import { DAY_MS } from '../../lib/time.js';

export interface LicenseScope {
  environmentId: string;
}

const iso = (at: Date | null) => (at ? at.toISOString() : null);
const day = (at: Date | null) => (at ? at.toISOString().slice(0, 10) : null);

/** What makes a key unusable now, most decisive first: disabled, then expired. */
export function licenseState(license: repo.LicenseRow, now: Date): 'disabled' | 'expired' | 'usable' {
  if (!license.enabled) return 'disabled';
  if (license.expires_on !== null && license.expires_on.getTime() <= now.getTime()) return 'expired';
  return 'usable';
}

function presentSubscription(row: repo.SubscriptionRow, now: Date): NonNullable<LicenseDetails['subscription']> {
  const recurrence = recurrenceOf(row.charge_period);
  const trialDaysRemaining =
    row.status === 'trialing' && row.trial_end ? Math.max(0, Math.ceil((row.trial_end.getTime() - now.getTime()) / DAY_MS)) : 0;
  return {
    id: row.id,
    externalSubscriptionId: null,
    recurrence: recurrenceText(recurrence.recurrenceUnit, recurrence.recurrenceType),
    billingPeriodStartTime: iso(row.current_period_start),
    billingPeriodEndTime: iso(row.current_period_end),
    startDate: day(row.start_date)!,
    endDate: day(row.end_date),
    status: row.status,
    amount: formatMinor(row.amount_minor, currencyDigits(row.currency)),
    currency: row.currency.toLowerCase(),
    trialDaysRemaining,
    billingType: row.charge_period === 'ONE_TIME' ? 'ONE_TIME' : 'SUBSCRIPTION',
    recurrenceUnit: recurrence.recurrenceUnit,
    recurrenceType: recurrence.recurrenceType,
  };
}

/** The reference's LicenseDetails of a key: usage, owner, plan and subscription context. */
export async function presentLicense(db: Executor, license: repo.LicenseRow, now: Date): Promise<LicenseDetails> {
  const environmentId = license.environment_id;
  const [usage, customer, plan, subscription] = await Promise.all([
    repo.usageOf(db, environmentId, [license.id]),
    repo.findCustomer(db, environmentId, license.customer_id),
    repo.findPlan(db, environmentId, license.plan_version_id),
    license.subscription_id ? repo.currentSubscription(db, environmentId, license.subscription_id) : undefined,
  ]);
  const used = usage.get(license.id);
  return {
    id: license.id,
    licenseKey: license.license_key,
    activatedOn: iso(used?.firstActivatedAt ?? null),
    expiresOn: iso(license.expires_on),
    activationUsage: used?.active ?? 0,
    activationLimit: license.activation_limit_enabled ? (license.activation_limit ?? 1) : null,
    enabled: license.enabled,
    customer: customer ? { customerId: customer.customer_id, name: customer.name, email: customer.email } : null,
    plan: plan
      ? {
          identifier: plan.identifier,
          name: plan.name,
          description: plan.description,
          version: plan.version,
          isLatest: plan.published_version === plan.version,
          product: {
            id: plan.product_id,
            identifier: plan.product_identifier,
            name: plan.product_name,
            taxCode: plan.product_tax_code,
            createdOn: plan.product_created_at.toISOString(),
            modifiedOn: plan.product_modified_at.toISOString(),
          },
        }
      : null,
    subscription: subscription ? presentSubscription(subscription, now) : null,
  };
}

/** Keys are pasted by people: surrounding white space is not part of one. */
const keyOf = (licenseKey: string) => licenseKey.trim();

type Freeing = { outcome: 'freed' | 'already'; at: Date; name: string } | { outcome: 'unknown' };

/**
 * Frees one active instance of a key its caller holds locked: the one step both deactivations
 * share (the public POST /license/deactivate/ and the seller's, by ids). `already` when it was freed before.
 */
async function freeInstance(tx: Executor, environmentId: string, licenseId: string, instanceId: string, at: Date): Promise<Freeing> {
  const instance = await repo.findInstance(tx, environmentId, licenseId, instanceId);
  if (!instance) return { outcome: 'unknown' };
  if (instance.deactivated_at) return { outcome: 'already', at: instance.deactivated_at, name: instance.name };
  const done = await repo.deactivateInstance(tx, instance.id, at);
  if (!done?.deactivated_at) return { outcome: 'unknown' };
  return { outcome: 'freed', at: done.deactivated_at, name: done.name };
}

export type ValidationAnswer = { status: 200 | 404; body: LicenseValidation };

export class LicenseService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * One new instance of a key. The key's row stays locked from the first read
   * to the commit, so concurrent activations count each other's instances and
   * the limit holds exactly.
   */
  async activate(scope: LicenseScope, input: LicenseActivate, keep?: AnswerKeeper): Promise<LicenseActivation> {
    const metadata = input.metadata ?? {};
    const problem = metadataProblem(metadata);
    if (problem) throw fieldProblem('metadata', problem, problem);
    return inTransaction(this.db, async (tx) => {
      const license = await repo.findLicense(tx, scope.environmentId, keyOf(input.licenseKey), { forUpdate: true });
      if (!license) throw keyOrCustomerNotFound();
      if (input.customerId !== undefined && input.customerId !== null) {
        const owner = await repo.findCustomer(tx, scope.environmentId, license.customer_id);
        if (owner?.customer_id !== input.customerId) throw keyOrCustomerNotFound();
      }
      const now = this.clock.now();
      const state = licenseState(license, now);
      if (state === 'disabled') throw licenseDisabled();
      if (state === 'expired') throw licenseExpired();
      if (license.activation_limit_enabled) {
        const limit = license.activation_limit ?? 1;
        const used = (await repo.usageOf(tx, scope.environmentId, [license.id])).get(license.id)?.active ?? 0;
        if (used >= limit) throw activationLimitReached(used, limit);
      }
      const instance = await repo.insertInstance(tx, {
        id: newId(),
        environmentId: scope.environmentId,
        licenseId: license.id,
        name: input.instanceName?.trim() ?? '',
        metadata,
        at: now,
      });
      return keptAnswer(keep, tx, {
        instanceId: instance.id,
        activatedAt: instance.created_at.toISOString(),
        expiresOn: iso(license.expires_on),
        license: await presentLicense(tx, license, now),
      });
    });
  }

  /** Frees an instance's activation; the key stays as it was, even when disabled or expired. */
  async deactivate(scope: LicenseScope, input: LicenseDeactivate, keep?: AnswerKeeper): Promise<LicenseDeactivation> {
    return inTransaction(this.db, async (tx) => {
      const license = await repo.findLicense(tx, scope.environmentId, keyOf(input.licenseKey), { forUpdate: true });
      if (!license) throw keyOrInstanceNotFound();
      const freed = await freeInstance(tx, scope.environmentId, license.id, input.instanceId, this.clock.now());
      if (freed.outcome === 'unknown') throw keyOrInstanceNotFound();
      if (freed.outcome === 'already') throw instanceAlreadyDeactivated(freed.at);
      return keptAnswer(keep, tx, { message: 'License instance deactivated successfully.', deactivatedAt: freed.at.toISOString() });
    });
  }

  /**
   * The seller frees a machine of one of a customer's keys (the dashboard): the same step as
   * `deactivate`, the key named by its id and its owner's customerId, recorded in the audit log
   * as `license.instance_deactivated`. Freeing it again is a conflict, and changes nothing.
   */
  async deactivateForCustomer(scope: LicenseScope & AuditableScope, path: CustomerLicenseInstancePath, keep?: AnswerKeeper): Promise<LicenseInstanceFreed> {
    return inTransaction(this.db, async (tx) => {
      const license = await repo.findCustomerLicense(tx, scope.environmentId, path.customerId, path.licenseId, { forUpdate: true });
      if (!license) throw customerLicenseNotFound(path.customerId);
      const now = this.clock.now();
      const freed = await freeInstance(tx, scope.environmentId, license.id, path.instanceId, now);
      if (freed.outcome === 'unknown') throw customerInstanceNotFound();
      if (freed.outcome === 'already') throw customerInstanceAlreadyFreed(freed.at);
      const answer = { licenseId: license.id, instanceId: path.instanceId, deactivatedOn: freed.at.toISOString() };
      const before = { customerId: path.customerId, instanceId: path.instanceId, instanceName: freed.name, deactivatedOn: null };
      const change = { action: 'license.instance_deactivated' as const, resourceType: 'license', resourceId: license.id, before, after: { ...before, deactivatedOn: answer.deactivatedOn } };
      await recordAudit(tx, scope, change, now);
      return keptAnswer(keep, tx, answer);
    });
  }

  /**
   * Whether a key (and, when named, one of its instances) may be used now.
   * An unknown key or instance is a 404 that still carries a validation body;
   * a disabled or expired key is a 200 with `valid: false`. Validating an
   * active instance records when it was last seen.
   */
  async validate(scope: LicenseScope, input: LicenseValidate): Promise<ValidationAnswer> {
    const license = await repo.findLicense(this.db, scope.environmentId, keyOf(input.licenseKey));
    if (!license) {
      return { status: 404, body: { valid: false, code: 'INVALID_KEY', detail: 'License key not found.', metadata: {} } };
    }
    const now = this.clock.now();
    let instance: repo.InstanceRow | undefined;
    if (input.instanceId !== undefined && input.instanceId !== null) {
      instance = await repo.findInstance(this.db, scope.environmentId, license.id, input.instanceId);
      if (instance && !instance.deactivated_at) await repo.touchInstance(this.db, instance.id, now);
    }
    const metadata = instance && !instance.deactivated_at ? instance.metadata : {};
    const details = await presentLicense(this.db, license, now);
    const state = licenseState(license, now);
    if (state === 'disabled') {
      return { status: 200, body: { valid: false, code: 'INVALID', detail: 'This license has been disabled.', metadata, license: details } };
    }
    if (state === 'expired') {
      return { status: 200, body: { valid: false, code: 'EXPIRED', detail: 'This license has expired.', metadata, license: details } };
    }
    if (input.instanceId === undefined || input.instanceId === null) {
      return { status: 200, body: { valid: true, code: 'VALID', detail: 'License key is valid.', metadata, license: details } };
    }
    if (!instance) {
      return {
        status: 404,
        body: { valid: false, code: 'INSTANCE_NOT_FOUND', detail: 'Instance ID invalid for this license.', metadata: {} },
      };
    }
    if (instance.deactivated_at) {
      return {
        status: 404,
        body: {
          valid: false,
          code: 'INSTANCE_NOT_FOUND',
          detail: `Instance ID invalid for this license: the instance was deactivated (at ${instance.deactivated_at.toISOString()}).`,
          metadata: {},
        },
      };
    }
    return {
      status: 200,
      body: { valid: true, code: 'VALID', detail: 'Instance ID valid for this license.', metadata, license: details },
    };
  }
}
