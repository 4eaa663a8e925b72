/**
 * The hosted checkout's "I'm buying as a business" field: the tax id typed, checked as the
 * API checks one (customers/tax-ids.ts: check digits, then VIES where configured) before the
 * completion's transaction; a refusal names the field, in the buyer's words.
 */
import type { Executor } from '../../db/transaction.js';
import type { StoredTaxId } from '../../db/schema.js';
import { DomainError } from '../../lib/domain-error.js';
import { checkedTaxIds, type TaxIdVerifier } from '../customers/queries.js';
import { TaxIdRefused } from '../customers/errors.js';
import { formProblem } from './errors.js';
import type { Selection } from './page-model.js';
import type { SessionRow } from './repo.js';
import { sessionCustomer } from './session-customer.js';

const UNTICK = 'or untick "I\'m buying as a business"';

/** Which refusal it is, as a catalogue message and its values (the country by name). */
function refusalKey(error: DomainError, value: string): [string, Record<string, string>?] {
  if (!(error instanceof TaxIdRefused)) return ['problem.taxIdInvalid'];
  if (error.reason === 'unknown_to_register') return ['problem.taxIdUnknown'];
  return error.reason === 'not_valid' && error.country ? ['problem.taxIdNotValid', { value, country: error.country }] : ['problem.taxIdInvalid'];
}

/** The business tax id the buyer gave, checked; null: the buyer does not buy as a business. */
export async function businessTaxIdOf(
  db: Executor,
  session: SessionRow,
  selection: Selection,
  context: { verify: TaxIdVerifier; now: Date },
): Promise<StoredTaxId | null> {
  if (!selection.business) return null;
  if (!selection.taxIdText) throw formProblem('tax_id', `Enter your business tax ID (such as a VAT number), ${UNTICK}.`, 'problem.taxIdMissing');
  const stored = (await sessionCustomer(db, session))?.tax_ids ?? [];
  try {
    const [id] = await checkedTaxIds([{ value: selection.taxIdText }], { ...context, fallbackCountry: selection.country, stored, field: 'tax_id' });
    return id!;
  } catch (error) {
    if (!(error instanceof DomainError) || error.kind !== 'invalid') throw error;
    const said = error.detail.replace(/^tax_id(\.country)?: /, '').replace('tax id', 'tax ID');
    throw formProblem('tax_id', `${said[0]!.toUpperCase()}${said.slice(1)}. Check it, ${UNTICK}.`, ...refusalKey(error, selection.taxIdText));
  }
}
