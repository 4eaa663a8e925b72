/**
 * A customer's business tax ids as given (API, portal, checkout) turned into the ones kept:
 * each checked offline (lib/tax-ids.ts), then, when BILLOW_TAX_ID_CHECK=vies, an EU VAT id
 * asked of VIES. The online check runs before any transaction (decision 0066).
 */
import type { TaxIdInput } from '@billow/contract';
import type { TaxIdCheckConfig } from '../../config.js';
import type { StoredTaxId } from '../../db/schema.js';
import { normalizeCountry } from '../../lib/countries.js';
import { checkTaxId, countryOfType, countryOfVatPrefix, type TaxId } from '../../lib/tax-ids.js';
import { checkVatNumber } from '../../lib/vies.js';
import { invalidTaxId, taxIdCountryUnknown, taxIdTypeTwice, taxIdUnknownToRegister, taxIdWithoutCountry } from './errors.js';

/** Asks a register about a checked id; null: no online check is configured for it. */
export type TaxIdVerifier = (id: TaxId) => Promise<{ outcome: 'valid' | 'invalid' | 'unavailable'; name: string | null; reason?: string } | null>;

export const NO_ONLINE_CHECK: TaxIdVerifier = async () => null;

/** The verifier the configuration asks for: VIES for EU VAT ids, or none. */
export function taxIdVerifier(config: TaxIdCheckConfig, log?: (message: string) => void): TaxIdVerifier {
  if (config.online !== 'vies') return NO_ONLINE_CHECK;
  return async (id) => {
    if (id.type !== 'eu_vat') return null;
    const answer = await checkVatNumber(config.viesUrl, config.timeoutMs, id.value.slice(0, 2), id.value.slice(2));
    if (answer.outcome === 'unavailable') log?.(`VIES could not check ${id.value}: ${answer.reason ?? 'unavailable'}`);
    return answer;
  };
}

function countryOf(at: string, input: TaxIdInput, fallback: string | null): string {
  if (input.country) {
    const country = normalizeCountry(input.country);
    if (!country) throw taxIdCountryUnknown(at, input.country);
    return country;
  }
  const country = countryOfType(input.type) ?? countryOfVatPrefix(input.value) ?? fallback;
  if (!country) throw taxIdWithoutCountry(at, input.value);
  return country;
}

/** The ids checked offline, in the order given; one of each type at most. */
export function offlineCheckedTaxIds(inputs: TaxIdInput[], fallbackCountry: string | null, field = 'taxIds'): TaxId[] {
  const checked = inputs.map((input, i) => {
    const at = inputs.length === 1 && field !== 'taxIds' ? field : `${field}[${i}]`;
    const country = countryOf(at, input, fallbackCountry);
    const result = checkTaxId(country, input.value, input.type);
    if (!result.ok) throw invalidTaxId(at, input.value, country, result.problem);
    return result.value;
  });
  const types = new Set<string>();
  for (const id of checked) {
    if (types.has(id.type)) throw taxIdTypeTwice(id.type);
    types.add(id.type);
  }
  return checked;
}

const same = (a: TaxId, b: TaxId) => a.type === b.type && a.value === b.value && a.country === b.country;

/**
 * The ids to keep: checked offline, then online where configured. An id the customer
 * already has keeps its verification (it is not asked again); one the register says is
 * invalid is refused; when the register cannot be asked, the id is kept as `unavailable`.
 */
export async function checkedTaxIds(
  inputs: TaxIdInput[],
  context: { fallbackCountry: string | null; stored: StoredTaxId[]; verify: TaxIdVerifier; now: Date; field?: string },
): Promise<StoredTaxId[]> {
  const ids = offlineCheckedTaxIds(inputs, context.fallbackCountry, context.field);
  return Promise.all(
    ids.map(async (id, i): Promise<StoredTaxId> => {
      const kept = context.stored.find((s) => same(s, id));
      if (kept) return kept;
      const answer = await context.verify(id);
      if (!answer) return { ...id, verification: { status: 'unchecked', checkedOn: null, name: null } };
      if (answer.outcome === 'invalid') throw taxIdUnknownToRegister(ids.length === 1 && context.field ? context.field : `${context.field ?? 'taxIds'}[${i}]`, id.value);
      const status = answer.outcome === 'valid' ? 'verified' : 'unavailable';
      return { ...id, verification: { status, checkedOn: context.now.toISOString(), name: answer.name } };
    }),
  );
}
