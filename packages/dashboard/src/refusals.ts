/** The API's refusals beside the field they name (decision 0091): the seller profile's and a promotion's pages. */
import type { ApiError } from './api';

/**
 * The field an API refusal names at the start of its `detail` (`supportEmail: …`,
 * `address.city is required`, `taxRegistrations[1]: …`), to show it beside that field; null for
 * a refusal that names none.
 */
export function refusedField(error: ApiError | null): string | null {
  if (!error || error.status !== 400) return null;
  return /^([A-Za-z]+(?:\[\d+\])?(?:\.[A-Za-z]+)*)(?::| is | must )/.exec(error.detail)?.[1] ?? null;
}

/** A refusal's words beside the field it names, without the field's wire name: `taxRegistrations[1]: "X" is not…` → `"X" is not…`. */
export function besideField(detail: string, path: string): string {
  const rest = detail.slice(path.length);
  if (rest.startsWith(':')) {
    const words = rest.slice(1).trim();
    return words.charAt(0).toUpperCase() + words.slice(1);
  }
  return `This field${rest}`;
}
