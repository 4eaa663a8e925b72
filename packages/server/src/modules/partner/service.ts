import type { PartnerOrganization, PartnerOrganizationCreate } from '@billow/contract';
import type { Clock } from '../../lib/clock.js';
import type { Db } from '../../db/connect.js';
import { inTransaction, isUniqueViolation } from '../../db/transaction.js';
import { createOrganizationIn, type CreatedOrganization } from '../tenancy/service.js';
import { keptAnswer, type AnswerKeeper } from '../../db/answer-keeper.js';
import * as repo from './repo.js';
import { duplicateEmail, duplicateExternalId, externalIdNotFound, organizationNotFound } from './errors.js';

type OrgRow = NonNullable<Awaited<ReturnType<typeof repo.findById>>>;

function toPartnerOrganization(row: OrgRow, keys: CreatedOrganization | null): PartnerOrganization {
  return {
    userId: null,
    organizationIdentifier: row.id,
    organizationSlug: row.slug,
    businessName: row.name,
    email: row.owner_email ?? '',
    partnerExternalId: row.partner_external_id ?? '',
    serverKey: keys?.production.serverKey ?? null,
    clientKey: keys?.production.clientKey ?? null,
    sandboxServerKey: keys?.sandbox.serverKey ?? null,
    sandboxClientKey: keys?.sandbox.clientKey ?? null,
    createdOn: row.created_at.toISOString(),
  };
}

export class PartnerService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async provision(partnerId: string, input: PartnerOrganizationCreate, keep?: AnswerKeeper): Promise<PartnerOrganization> {
    const email = input.email.trim();
    const externalId = input.externalId;
    const name = input.businessName?.trim() || email.split('@')[0] || email;
    try {
      return await inTransaction(this.db, async (tx) => {
        if (await repo.findByExternalId(tx, partnerId, externalId)) throw duplicateExternalId(externalId);
        if (await repo.emailTaken(tx, email)) throw duplicateEmail(email);
        const created = await createOrganizationIn(tx, this.clock, {
          name,
          ownerEmail: email,
          partnerId,
          partnerExternalId: externalId,
        });
        const row = await repo.findById(tx, partnerId, created.organizationId);
        return keptAnswer(keep, tx, toPartnerOrganization(row!, created));
      });
    } catch (error) {
      if (isUniqueViolation(error, repo.EXTERNAL_ID_INDEX)) throw duplicateExternalId(externalId);
      if (isUniqueViolation(error, repo.OWNER_EMAIL_INDEX)) throw duplicateEmail(email);
      throw error;
    }
  }

  async list(partnerId: string, externalId?: string) {
    const rows = await repo.listForPartner(this.db, partnerId, externalId);
    return { results: rows.map((r) => toPartnerOrganization(r, null)), count: rows.length };
  }

  async get(partnerId: string, id: string): Promise<PartnerOrganization> {
    const row = /^[0-9a-f-]{36}$/i.test(id) ? await repo.findById(this.db, partnerId, id) : undefined;
    if (!row) throw organizationNotFound(id);
    return toPartnerOrganization(row, null);
  }

  async getByExternalId(partnerId: string, externalId: string): Promise<PartnerOrganization> {
    const row = await repo.findByExternalId(this.db, partnerId, externalId);
    if (!row) throw externalIdNotFound(externalId);
    return toPartnerOrganization(row, null);
  }
}
