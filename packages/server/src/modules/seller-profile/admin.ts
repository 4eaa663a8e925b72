/** The operator's commands for seller profiles (`billow profile …`), without the HTTP service. */
import type { SellerProfile, SellerProfileUpdate } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import { environmentOf } from './repo.js';
import { SellerProfileService } from './service.js';

type Kind = 'sandbox' | 'production';

/** A profile command that cannot be carried out, in words for the operator. */
export class ProfileAdminError extends Error {}

async function scopeOf(db: Db, organizationId: string, environment: Kind) {
  const found = await environmentOf(db, organizationId, environment);
  if (!found) throw new ProfileAdminError(`No organization ${organizationId}`);
  return { organizationId, environmentId: found.id };
}

export async function showProfile(db: Db, clock: Clock, organizationId: string, environment: Kind): Promise<SellerProfile> {
  return new SellerProfileService(db, clock).get(await scopeOf(db, organizationId, environment));
}

/** `input` has been checked against SellerProfileUpdate by the caller. */
export async function updateProfile(db: Db, clock: Clock, organizationId: string, environment: Kind, input: SellerProfileUpdate): Promise<SellerProfile> {
  const scope = await scopeOf(db, organizationId, environment);
  try {
    return await new SellerProfileService(db, clock).update(scope, input);
  } catch (error) {
    const detail = (error as { detail?: unknown }).detail;
    if (typeof detail === 'string') throw new ProfileAdminError(detail);
    throw error;
  }
}
