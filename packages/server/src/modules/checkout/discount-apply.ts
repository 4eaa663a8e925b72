/**
 * The page's discount field, for both of its paths: the form posted back (no JavaScript)
 * and the JSON quote the script asks for (discount-quote.ts). Either way the code goes
 * through the discount seam (discount.ts) and, once accepted, is kept on the session:
 * the payment is priced from the session's own code, never from anything the page sends.
 */
import type { Db } from '../../db/connect.js';
import { inTransaction } from '../../db/transaction.js';
import { DomainError } from '../../lib/domain-error.js';
import type { Clock } from '../../lib/clock.js';
import { resolveCheckoutDiscount } from './discount.js';
import { formProblem, type FormProblem } from './errors.js';
import { pageSelection, priceSelection } from './page-model.js';
import * as repo from './repo.js';

export type SentFields = Record<string, string | undefined>;

/** Why a code is refused, as the buyer at the page reads it: a catalogue message by the discounts module's refusal code. */
const REASONS: Record<string, { key: string; english: string }> = {
  discount_code_unknown: { key: 'problem.discountUnknown', english: 'there is no such code' },
  discount_code_expired: { key: 'problem.discountExpired', english: 'it has expired' },
  discount_code_exhausted: { key: 'problem.discountExhausted', english: 'it has been used up' },
  discount_not_applicable: { key: 'problem.discountNotApplicable', english: 'it is not valid for this plan or currency' },
};
const OTHER_REASON = { key: 'problem.discountRefused', english: 'it is not valid for this purchase' };

export function refusedCode(code: string, refusal: DomainError): FormProblem {
  const reason = REASONS[refusal.code] ?? OTHER_REASON;
  return formProblem('discount_code', `The code "${code}" cannot be applied: ${reason.english}.`, reason.key, { code });
}

/** The code the buyer sent, or null to remove it (an empty field, or the "Remove" button). */
export function sentCode(sent: SentFields): string | null {
  if (sent.remove_discount) return null;
  return (sent.discount_code ?? '').trim().slice(0, 100) || null;
}

/**
 * What a posted page asks for. "Remove" posts `remove_discount`. Enter in a field posts
 * `enter` (the form's unseen first button, page.ts): it applies the discount field's code
 * when that is not the session's (Enter typed in that field), and pays otherwise.
 */
export function postedAction(session: repo.SessionRow, sent: SentFields): string | undefined {
  if (session.discounts_enabled && sent.remove_discount) return 'discount';
  if (sent.action !== 'enter') return sent.action;
  const changed = session.discounts_enabled && sent.discount_code !== undefined && sentCode(sent) !== session.discount_code;
  return changed ? 'discount' : 'pay';
}

/**
 * Checks the sent code against the selection the page shows and keeps it on the session
 * (or removes it); a FormProblem on the `discount_code` field when it cannot apply. The
 * session is locked and must still be open: a code never changes under a payment.
 */
export async function applySessionDiscount(
  db: Db,
  clock: Clock,
  session: repo.SessionRow,
  sent: SentFields,
  ipAddress: string | null,
): Promise<repo.SessionRow> {
  if (!session.discounts_enabled) throw formProblem('discount_code', 'Discount codes are not accepted for this purchase.', 'problem.discountsDisabled');
  const code = sentCode(sent);
  const selection = await pageSelection(db, session, sent, ipAddress);
  return inTransaction(db, async (tx) => {
    const locked = (await repo.findSession(tx, session.id, { forUpdate: true }))!;
    if (locked.status !== 'open') throw formProblem(null, 'A payment for this checkout is in progress; the code cannot be changed now. Reload the page.', 'problem.discountLocked');
    const now = clock.now();
    if (code) {
      // Priced without the code it replaces, which may no longer apply itself.
      const priced = await priceSelection(tx, { ...locked, discount_code: null }, selection, now);
      // Why (priced.problem) is the API's detail, for engineers: the buyer reads that the selection cannot be bought.
      if (!priced.purchase) throw formProblem(null, 'This selection cannot be bought.', 'summary.cannotBuy');
      try {
        await resolveCheckoutDiscount(tx, { environmentId: locked.environment_id }, code, priced.purchase, now);
      } catch (error) {
        if (error instanceof DomainError) throw refusedCode(code, error);
        throw error;
      }
    }
    return repo.updateSession(tx, locked.id, { discount_code: code, modified_at: now });
  });
}
