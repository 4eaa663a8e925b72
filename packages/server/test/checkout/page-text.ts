/** Reading hosted pages as a person would (the language tests of the checkout, pay links and portal). */

/** The page's visible text: scripts and tags dropped, the escaper's entities decoded, spaces (Intl's no-break ones too) collapsed. */
export const textOf = (page: string): string =>
  page
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

export const langOf = (page: string): string | undefined => /<html lang="([^"]+)">/.exec(page)?.[1];

/** Wire codes and enums a buyer must never read (periods, statuses, API field names). */
export const WIRE_WORDS = /\b(ONE_TIME|MONTHLY|YEARLY|TWENTY_EIGHT_DAYS|THREE_MONTHS|SIX_MONTHS|PAID|OPEN|PAYMENT_FAILED|past_due|trialing|canceled|COMPLETE|PARTIAL_REFUND|expMonth|expYear|cardNumber|Luhn|EVERY_MONTH|CUSTOMIZABLE|BOOLEAN)\b/;

/** A GET as a browser set to `acceptLanguage` sends it (no redirect followed). */
export async function getIn(url: string, acceptLanguage?: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(url, { redirect: 'manual', headers: { ...headers, ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}) } });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** A form posted as such a browser without JavaScript posts it. */
export async function postIn(url: string, fields: Record<string, string>, acceptLanguage?: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}) },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}
