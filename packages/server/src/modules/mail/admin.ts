/** The operator's commands for buyer emails (`billow emails …`), without the HTTP service. */
import type { EmailSettings, EmailSettingsUpdate } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
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

/** `update` has been checked against EmailSettingsUpdate by the caller. */
export async function updateEmailSettings(db: Db, clock: Clock, organizationId: string, environment: Kind, update: EmailSettingsUpdate): Promise<EmailSettings> {
  return new EmailSettingsService(db, clock).update(await scopeOf(db, organizationId, environment), update);
}
