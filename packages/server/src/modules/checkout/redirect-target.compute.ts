/**
 * Where a buy link may send the buyer (decision 0054). A buy link is an unauthenticated
 * URL anyone can write, so its success_url and cancel_url are honoured only on the site the
 * seller configured for the product (its settings' productUrl): that host, or one of its
 * subdomains ("www." of the configured host is ignored, so www.acme.example and
 * app.acme.example both belong to acme.example).
 */
export function onSellerSite(target: string, productUrl: string | null): boolean {
  const site = hostOf(productUrl);
  const host = hostOf(target);
  if (site === null || host === null) return false;
  const root = site.startsWith('www.') ? site.slice(4) : site;
  return host === root || host.endsWith(`.${root}`);
}

function hostOf(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.hostname.toLowerCase() : null;
  } catch {
    return null;
  }
}
