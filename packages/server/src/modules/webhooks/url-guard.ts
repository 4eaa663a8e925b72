import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import type { EnvironmentKind } from '../../config.js';

/** Why a URL may not receive webhooks; null when it may. */
export type UrlRefusal = string | null;

/** The address kinds ipaddr.js names that a production endpoint may resolve to: public unicast only. */
const PUBLIC_RANGES = new Set(['unicast']);

/** What kind of address this is, when it is not one a production endpoint may reach; null for a public one. */
export function forbiddenRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const range = ipaddr.process(address).range();
  return PUBLIC_RANGES.has(range) ? null : range;
}

/** The checks that need no network: scheme, credentials, and an IP literal's range. */
export function refuseUrlSyntax(raw: string, environment: EnvironmentKind): UrlRefusal {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute http(s) URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'url must use https (or http in the sandbox)';
  if (url.username || url.password) return 'url may not carry a user name or password';
  if (environment === 'sandbox') return null;
  if (url.protocol !== 'https:') return 'url must use https in production';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) {
    const range = forbiddenRange(host);
    if (range) return `url points at a ${range} address (${host}); production endpoints must be public`;
  }
  return null;
}

type Resolve = (host: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (host) =>
  new Promise((resolve, reject) => dnsLookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/** Every address the host resolves to must be public. */
export async function refuseResolvedHost(host: string, resolve: Resolve = systemResolve): Promise<UrlRefusal> {
  const bare = host.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  try {
    addresses = ipaddr.isValid(bare) ? [{ address: bare, family: bare.includes(':') ? 6 : 4 }] : await resolve(bare);
  } catch {
    return `url host ${bare} does not resolve`;
  }
  for (const { address } of addresses) {
    const range = forbiddenRange(address);
    if (range) return `url host ${bare} resolves to a ${range} address (${address}); production endpoints must be public`;
  }
  return addresses.length > 0 ? null : `url host ${bare} does not resolve`;
}

/** A URL a production endpoint may have: https, and a host that resolves to public addresses only. */
export async function refuseUrl(raw: string, environment: EnvironmentKind): Promise<UrlRefusal> {
  const syntax = refuseUrlSyntax(raw, environment);
  if (syntax || environment === 'sandbox') return syntax;
  return refuseResolvedHost(new URL(raw).hostname);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A lookup for production deliveries: the connection goes to the address that was
 * checked, so a name that resolves to a private address by now (DNS changed, or
 * rebinding) is refused at delivery time too.
 */
export function publicOnlyLookup(host: string, options: { all?: boolean }, callback: LookupCallback): void {
  dnsLookup(host, { all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.map((a) => [a.address, forbiddenRange(a.address)] as const).find(([, range]) => range !== null);
    if (refused) {
      const failure: NodeJS.ErrnoException = new Error(`${host} resolves to a ${refused[1]} address (${refused[0]}); refused`);
      failure.code = 'EADDRREFUSED';
      return callback(failure, []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}
