import type { ApiError } from '../api';
import { hasMessage, t, type MessageKey } from './language';

/** The server's words the dashboard has in every language, where the code alone does not say which (decision 0108). */
const DETAILS: Record<string, MessageKey> = {
  'The email or the password is not right': 'error.wrongCredentials',
  'Not signed in, or the session has ended: sign in again': 'error.notSignedIn',
};

/**
 * An API's refusal in the dashboard's language: the catalogue's message for its code (or its
 * well-known words) when there is one, else the server's own `detail` as it is.
 */
export function problemText(error: ApiError): string {
  if (error.status === 0) return t('error.unreachable');
  const byCode = error.code ? `error.${error.code.toLowerCase()}` : '';
  if (byCode && hasMessage(byCode)) return t(byCode);
  const byDetail = DETAILS[error.detail.replace(/\.$/, '')];
  if (byDetail) return t(byDetail);
  const answered = /^Billow answered (\d+)\.$/.exec(error.detail);
  return answered ? t('error.answered', { status: answered[1]! }) : error.detail;
}
