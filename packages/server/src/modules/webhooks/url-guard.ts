import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import type { EnvironmentKind } from '../../config.js';

/** Why a URL may not receive webhooks; null when it may. */
export type UrlRefusal = string | null;

/** The address kinds ipaddr.js names that a public-only endpoint may resolve to: public unicast only. */
const PUBLIC_RANGES = new Set(['unicast']);

/**
 * Where an environment's endpoints may point (decision 0057): production always at
 * https URLs of public addresses; sandbox over http too, and at private or local
 * addresses only where the installation allows it.
 */
export interface TargetRules {
  httpsOnly: boolean;
  publicOnly: boolean;
  /** Says which endpoints must be public, in a refusal. */
  whose: string;
}

export function targetRules(environment: EnvironmentKind, sandboxPrivateTargets: boolean): TargetRules {
  if (environment === 'production') return { httpsOnly: true, publicOnly: true, whose: 'production endpoints' };
  return { httpsOnly: false, publicOnly: !sandboxPrivateTargets, whose: 'sandbox endpoints of this installation' };
}

/**
 * What kind of address this is, when a public-only endpoint may not reach it; null for a
 * public one. IPv4-compatible IPv6 addresses (::a.b.c.d, deprecated since RFC 4291) are
 * refused whole: ipaddr.js calls them unicast, and ::7f00:1 reaches 127.0.0.1 on hosts
 * that still route them.
 */
export function forbiddenRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (!PUBLIC_RANGES.has(range)) return range;
  return parsed.kind() === 'ipv6' && isIpv4Compatible(parsed as ipaddr.IPv6) ? 'deprecated IPv4-compatible' : null;
}

function isIpv4Compatible(address: ipaddr.IPv6): boolean {
  return address.parts.slice(0, 6).every((part) => part === 0);
}

/** The checks that need no network: scheme, credentials, and an IP literal's range. */
export function refuseUrlSyntax(raw: string, rules: TargetRules): UrlRefusal {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute http(s) URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'url must use https (or http in the sandbox)';
  if (url.username || url.password) return 'url may not carry a user name or password';
  if (rules.httpsOnly && url.protocol !== 'https:') return 'url must use https in production';
  if (!rules.publicOnly) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) {
    const range = forbiddenRange(host);
    if (range) return `url points at a ${range} address (${host}); ${rules.whose} must be public`;
  }
  return null;
}

type Resolve = (host: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (host) =>
  new Promise((resolve, reject) => dnsLookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/** Every address the host resolves to must be public. */
export async function refuseResolvedHost(host: string, rules: TargetRules, resolve: Resolve = systemResolve): Promise<UrlRefusal> {
  const bare = host.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  try {
    addresses = ipaddr.isValid(bare) ? [{ address: bare, family: bare.includes(':') ? 6 : 4 }] : await resolve(bare);
  } catch {
    return `url host ${bare} does not resolve`;
  }
  for (const { address } of addresses) {
    const range = forbiddenRange(address);
    if (range) return `url host ${bare} resolves to a ${range} address (${address}); ${rules.whose} must be public`;
  }
  return addresses.length > 0 ? null : `url host ${bare} does not resolve`;
}

/** A URL an endpoint may have under `rules`: its scheme, and a host that resolves to public addresses where they must be. */
export async function refuseUrl(raw: string, rules: TargetRules): Promise<UrlRefusal> {
  const syntax = refuseUrlSyntax(raw, rules);
  if (syntax || !rules.publicOnly) return syntax;
  return refuseResolvedHost(new URL(raw).hostname, rules);
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
