/**
 * The EU's VIES register asked whether a VAT id is valid, through its REST API
 * (POST check-vat-number with {countryCode, vatNumber}). Never called inside a database
 * transaction: callers check first, then write.
 */

export interface ViesAnswer {
  /** valid / invalid: the register answered; unavailable: it could not be asked (down, slow, an error of its own). */
  outcome: 'valid' | 'invalid' | 'unavailable';
  /** The trader's name as the register holds it, when it gives one. */
  name: string | null;
  /** Why the register could not be asked, for the logs. */
  reason?: string;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' && value.trim() !== '---' ? value.trim() : null);

/** What VIES said, read leniently: anything but a plain `valid` boolean is "could not be asked". */
function answerOf(status: number, body: unknown): ViesAnswer {
  if (status < 200 || status >= 300) return { outcome: 'unavailable', name: null, reason: `HTTP ${status}` };
  const answer = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const wrapped = Array.isArray(answer.errorWrappers) ? (answer.errorWrappers as Array<{ error?: unknown }>) : [];
  if (answer.actionSucceed === false || wrapped.length > 0) {
    return { outcome: 'unavailable', name: null, reason: String(wrapped[0]?.error ?? 'actionSucceed false') };
  }
  if (typeof answer.valid !== 'boolean') return { outcome: 'unavailable', name: null, reason: 'no "valid" in the answer' };
  return { outcome: answer.valid ? 'valid' : 'invalid', name: answer.valid ? (text(answer.name) ?? text(answer.traderName)) : null };
}

/**
 * Asks VIES about one VAT id: `countryCode` is the id's prefix (EL for Greece), `vatNumber`
 * the rest. Gives up after `timeoutMs`, answering `unavailable`.
 */
export async function checkVatNumber(url: string, timeoutMs: number, countryCode: string, vatNumber: string): Promise<ViesAnswer> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ countryCode, vatNumber }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body: unknown = await response.json().catch(() => null);
    return answerOf(response.status, body);
  } catch (error) {
    const reason = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : String(error);
    return { outcome: 'unavailable', name: null, reason };
  }
}
