/** The operator's commands for buyer emails (`billow emails …`), without the HTTP service. */
import type { EmailSettings, EmailSettingsUpdate } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import { DomainError } from '../../lib/domain-error.js';
import { findEnvironment } from '../tenancy/queries.js';
import { EmailSettingsService } from './settings.service.js';

type Kind = 'sandbox' | 'production';

/** An email command that cannot be carried out, in words for the operator. */
export class EmailAdminError extends Error {}

async function scopeOf(db: Db, organizationId: string, environment: Kind) {
  const found = await findEnvironment(db, organizationId, environment);
  if (!found) throw new EmailAdminError(`No organization ${organizationId}`);
  return { environmentId: found.id };
}

export async function showEmailSettings(db: Db, clock: Clock, organizationId: string, environment: Kind): Promise<EmailSettings> {
  return new EmailSettingsService(db, clock).get(await scopeOf(db, organizationId, environment));
}

/** `update` has the API's fields and types; a value the API would refuse (days out of range) is refused in the same words. */
export async function updateEmailSettings(db: Db, clock: Clock, organizationId: string, environment: Kind, update: EmailSettingsUpdate): Promise<EmailSettings> {
  const scope = await scopeOf(db, organizationId, environment);
  try {
    return await new EmailSettingsService(db, clock).update(scope, update);
  } catch (error) {
    if (error instanceof DomainError) throw new EmailAdminError(error.detail);
    throw error;
  }
}
