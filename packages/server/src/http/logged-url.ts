/**
 * A request's URL as the request log writes it (decision 0054): every credential a URL can
 * carry is cut out, so that logs, which many people and systems read, open nothing. In the
 * path: checkout session ids (`/cs_…`, they open the payment page) and invoice payment
 * tokens (`/pay/pl_…`) keep their first four characters for correlation; the development
 * inbox's key goes whole. In the query: the values of `token` (portal links), `signature`
 * and `key` (signed media links), `secret`, `code` and `password`, and anything shaped
 * like an API key.
 */
const PATH_SECRETS = /\/(cs_[A-Za-z0-9]{4})[A-Za-z0-9]{20,}|\/(pl_[A-Za-z0-9]{4})[A-Za-z0-9]{16,}|(\/mail\/inbox\/)[^/?#]+/g;
const API_KEYS = /\b((?:sk|ck)_(?:test|live)|bpk)_[A-Za-z0-9]+/g;
const SECRET_NAMES = /^(?:token|signature|key|secret|code|password)$/i;
/** A cheap first look: a query without any of these cannot hold a secret. */
const MAYBE_SECRET_QUERY = /token|signature|key|secret|code|password|_test_|_live_|bpk_|%/i;
const REDACTED = '[redacted]';

export function loggedUrl(url: string): string {
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  const safePath = path.replace(PATH_SECRETS, (_m, session?: string, pay?: string, inbox?: string) =>
    inbox !== undefined ? `${inbox}${REDACTED}` : `/${session ?? pay}${REDACTED}`,
  );
  if (mark === -1) return safePath;
  const query = url.slice(mark + 1);
  return `${safePath}?${MAYBE_SECRET_QUERY.test(query) ? safeQuery(query) : query}`;
}

function safeQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      if (equals !== -1 && SECRET_NAMES.test(decoded(name))) return `${name}=${REDACTED}`;
      return pair.replace(API_KEYS, `$1_${REDACTED}`);
    })
    .join('&');
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
