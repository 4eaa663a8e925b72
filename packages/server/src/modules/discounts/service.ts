import { randomInt } from 'node:crypto';
import type { Discount, DiscountCreate, DiscountListQuery } from '@billow/contract';
import type { Db } from '../../db/connect.js';
import type { DiscountDuration } from '../../db/schema.js';
import { isUuid } from '../../db/search.js';
import { inTransaction, isUniqueViolation, type Executor } from '../../db/transaction.js';
import type { PageRequest } from '../../lib/pagination.js';
import { keptAnswer, writeKeeping, type AnswerKeeper } from '../../db/answer-keeper.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/crypto.js';
import { metadataProblem } from '../../lib/metadata.js';
import { AmountError, currencyDigits, fromMinor, isCurrency, toMinor } from '../../lib/money.js';
import { findPlan, findProduct } from '../catalog/queries.js';
import { discountStatus, percentToBasisPoints } from './discounts.compute.js';
import { codeGenerationFailed, discountCodeTaken, discountNotFound, invalidDiscount } from './errors.js';
import * as repo from './repo.js';

export interface DiscountScope {
  environmentId: string;
}

/** What a valid create request becomes, before it has a code. */
interface DiscountDraft {
  name: string;
  discount_type: 'PERCENTAGE' | 'FIXED_AMOUNT';
  percent_off_bp: number | null;
  amounts: Array<{ currency: string; amount_minor: number }>;
  duration: DiscountDuration;
  duration_in_cycles: number | null;
  max_redemptions: number | null;
  expires_at: Date | null;
  plan_ids: string[];
  product_ids: string[];
  metadata: Record<string, unknown>;
}

const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const CODE_ATTEMPTS = 5;
const LATEST_EXPIRY = Date.UTC(2999, 11, 31);

/** 8 capital letters and digits, each drawn uniformly from a CSPRNG. */
export function generateCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

export function present(row: repo.DiscountView, now: Date): Discount {
  return {
    id: row.id,
    object: 'discount',
    name: row.name,
    code: row.code,
    status: discountStatus(row, now),
    discountType: row.discount_type,
    percentOff: row.percent_off_bp === null ? null : fromMinor(row.percent_off_bp, 2),
    amountsOff: row.amounts.map((a) => ({
      currency: a.currency,
      amount: fromMinor(Number(a.amount_minor), currencyDigits(a.currency)),
      amountUnits: Number(a.amount_minor),
    })),
    duration: row.duration,
    durationInCycles: row.duration_in_cycles,
    maxRedemptions: row.max_redemptions,
    timesRedeemed: row.times_redeemed,
    expiresAt: row.expires_at?.toISOString() ?? null,
    restrictions: { planIdentifiers: row.plan_identifiers, productIds: row.product_ids },
    metadata: row.metadata,
    createdOn: row.created_at.toISOString(),
    modifiedOn: row.modified_at.toISOString(),
    archivedAt: row.archived_at?.toISOString() ?? null,
  };
}

function percentOf(input: DiscountCreate): number | null {
  if (input.discountType !== 'PERCENTAGE') {
    if (input.percentOff !== undefined) throw invalidDiscount('percentOff is for discountType PERCENTAGE; a FIXED_AMOUNT discount takes amountsOff');
    return null;
  }
  if (input.amountsOff !== undefined) throw invalidDiscount('amountsOff is for discountType FIXED_AMOUNT; a PERCENTAGE discount takes percentOff');
  if (input.percentOff === undefined) throw invalidDiscount('percentOff is required for discountType PERCENTAGE');
  const basisPoints = percentToBasisPoints(input.percentOff);
  if (basisPoints === null) throw invalidDiscount(`percentOff ${input.percentOff} has more than two decimal places`);
  return basisPoints;
}

function amountsOf(input: DiscountCreate): DiscountDraft['amounts'] {
  if (input.discountType !== 'FIXED_AMOUNT') return [];
  if (input.amountsOff === undefined) throw invalidDiscount('amountsOff is required for discountType FIXED_AMOUNT');
  const seen = new Set<string>();
  return input.amountsOff.map((entry, i) => {
    const currency = entry.currency.toUpperCase();
    if (!isCurrency(currency)) throw invalidDiscount(`amountsOff[${i}].currency: "${entry.currency}" is not an ISO 4217 currency code`);
    if (seen.has(currency)) throw invalidDiscount(`amountsOff[${i}].currency: ${currency} is given twice`);
    seen.add(currency);
    try {
      return { currency, amount_minor: toMinor(entry.amount, currencyDigits(currency)) };
    } catch (error) {
      if (error instanceof AmountError) throw invalidDiscount(`amountsOff[${i}].amount: ${entry.amount} ${error.message} (${currency})`);
      throw error;
    }
  });
}

/** ONCE, REPEATING with its count, or FOREVER; "recurring" is on by default, as in the reference. */
function durationOf(input: DiscountCreate): { duration: DiscountDuration; cycles: number | null } {
  const duration = input.duration ?? (input.durationInCycles !== undefined ? 'REPEATING' : 'FOREVER');
  if (duration === 'REPEATING') {
    if (input.durationInCycles === undefined) throw invalidDiscount('durationInCycles is required for duration REPEATING');
    return { duration, cycles: input.durationInCycles };
  }
  if (input.durationInCycles !== undefined) throw invalidDiscount(`durationInCycles is for duration REPEATING, not ${duration}`);
  return { duration, cycles: null };
}

function expiryOf(input: DiscountCreate, now: Date): Date | null {
  if (input.expiresAt === undefined) return null;
  const at = new Date(input.expiresAt);
  if (Number.isNaN(at.getTime()) || at.getTime() > LATEST_EXPIRY) throw invalidDiscount('expiresAt must be a date-time before the year 3000');
  if (at.getTime() <= now.getTime()) throw invalidDiscount(`expiresAt must be in the future (it is now ${now.toISOString()})`);
  return at;
}

/** The ids of the plans and products named, each of which must exist in the environment and not be archived. */
async function restrictionsOf(db: Executor, environmentId: string, input: DiscountCreate): Promise<{ plan_ids: string[]; product_ids: string[] }> {
  const plan_ids = new Set<string>();
  for (const [i, identifier] of (input.restrictions?.planIdentifiers ?? []).entries()) {
    const plan = await findPlan(db, environmentId, identifier);
    if (!plan || plan.archived_at) throw invalidDiscount(`restrictions.planIdentifiers[${i}]: no plan "${identifier}"`);
    plan_ids.add(plan.id);
  }
  const product_ids = new Set<string>();
  for (const [i, ref] of (input.restrictions?.productIds ?? []).entries()) {
    const product = await findProduct(db, environmentId, ref);
    if (!product || product.archived_at) throw invalidDiscount(`restrictions.productIds[${i}]: no product "${ref}"`);
    product_ids.add(product.id);
  }
  return { plan_ids: [...plan_ids], product_ids: [...product_ids] };
}

export class DiscountService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Everything checked before anything is written: a refused request leaves nothing behind. */
  private async draft(scope: DiscountScope, input: DiscountCreate, now: Date): Promise<DiscountDraft> {
    const percent_off_bp = percentOf(input);
    const amounts = amountsOf(input);
    const { duration, cycles } = durationOf(input);
    const expires_at = expiryOf(input, now);
    const metadata = input.metadata ?? {};
    const problem = metadataProblem(metadata);
    if (problem) throw invalidDiscount(problem);
    const restrictions = await restrictionsOf(this.db, scope.environmentId, input);
    return {
      name: input.name,
      discount_type: input.discountType,
      percent_off_bp,
      amounts,
      duration,
      duration_in_cycles: cycles,
      max_redemptions: input.maxRedemptions ?? null,
      expires_at,
      ...restrictions,
      metadata,
    };
  }

  async create(scope: DiscountScope, input: DiscountCreate, keep?: AnswerKeeper): Promise<Discount> {
    const now = this.clock.now();
    const draft = await this.draft(scope, input, now);
    for (let attempt = 1; ; attempt++) {
      const code = input.code ?? generateCode();
      try {
        return await this.insert(scope, draft, code, now, keep);
      } catch (error) {
        if (!isUniqueViolation(error, repo.DISCOUNT_CODE_CONSTRAINT)) throw error;
        if (input.code !== undefined) throw discountCodeTaken(input.code);
        if (attempt >= CODE_ATTEMPTS) throw codeGenerationFailed();
      }
    }
  }

  private insert(scope: DiscountScope, draft: DiscountDraft, code: string, now: Date, keep?: AnswerKeeper): Promise<Discount> {
    const { amounts, metadata, ...columns } = draft;
    return inTransaction(this.db, async (tx) => {
      const row = await repo.insertDiscount(tx, {
        id: newId(),
        environment_id: scope.environmentId,
        code,
        ...columns,
        metadata: JSON.stringify(metadata),
        created_at: now,
        modified_at: now,
      });
      await repo.insertAmounts(tx, amounts.map((a) => ({ discount_id: row.id, ...a })));
      return keptAnswer(keep, tx, present(await this.find(scope, row.id, tx), now));
    });
  }

  /** By id, or by code (the discount not archived, else the last archived with it). */
  private async find(scope: DiscountScope, ref: string, db: Executor = this.db): Promise<repo.DiscountView> {
    const row =
      (isUuid(ref) ? await repo.findDiscountById(db, scope.environmentId, ref) : undefined) ??
      (await repo.findDiscountByCode(db, scope.environmentId, ref, { archivedToo: true }));
    if (!row) throw discountNotFound(ref);
    return row;
  }

  async get(scope: DiscountScope, ref: string): Promise<Discount> {
    return present(await this.find(scope, ref), this.clock.now());
  }

  async list(scope: DiscountScope, query: DiscountListQuery, page: PageRequest): Promise<{ count: number; results: Discount[] }> {
    const now = this.clock.now();
    const filter = { status: query.status, search: query.search?.trim() || undefined, now };
    const count = await repo.countDiscounts(this.db, scope.environmentId, filter);
    const rows = page.offset >= count ? [] : await repo.listDiscounts(this.db, scope.environmentId, filter, page);
    return { count, results: rows.map((row) => present(row, now)) };
  }

  /** Archived: the code is refused from now on and free for a new discount; subscriptions that carry it keep it. */
  async archive(scope: DiscountScope, ref: string, keep?: AnswerKeeper): Promise<Discount> {
    return writeKeeping(this.db, keep, async (db) => {
      const { id } = await this.find(scope, ref, db);
      await repo.archiveDiscount(db, scope.environmentId, id, this.clock.now());
      return present(await this.find(scope, id, db), this.clock.now());
    });
  }
}
