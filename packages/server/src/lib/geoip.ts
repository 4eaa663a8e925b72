import fs from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';

/**
 * Country of an IP address, from DB-IP's "IP to Country Lite" data (CC BY 4.0,
 * https://db-ip.com), shipped in the @ip-location-db/dbip-country package.
 * Each address family's ranges are read on its first lookup and kept sorted
 * in memory; a lookup is a binary search.
 */

interface Ranges<T> {
  starts: T[];
  ends: T[];
  countries: string[];
}

const requireFrom = createRequire(import.meta.url);
const dataFile = (name: string) => requireFrom.resolve(`@ip-location-db/dbip-country/${name}`);

function readRanges<T>(file: string, parse: (text: string) => T): Ranges<T> {
  const ranges: Ranges<T> = { starts: [], ends: [], countries: [] };
  for (const line of fs.readFileSync(dataFile(file), 'utf8').split('\n')) {
    if (!line) continue;
    const [start, end, country] = line.split(',');
    if (!start || !end || !country) continue;
    ranges.starts.push(parse(start));
    ranges.ends.push(parse(end));
    ranges.countries.push(country.trim());
  }
  return ranges;
}

function find<T>(ranges: Ranges<T>, value: T): string | null {
  let low = 0;
  let high = ranges.starts.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (ranges.starts[mid]! > value) high = mid - 1;
    else if (ranges.ends[mid]! < value) low = mid + 1;
    else return ranges.countries[mid]!;
  }
  return null;
}

let ipv4: Ranges<number> | null = null;
let ipv6: Ranges<bigint> | null = null;

function ipv4Number(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function ipv6Number(ip: string): bigint {
  let address = ip.toLowerCase();
  const embedded = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (embedded) {
    const n = ipv4Number(embedded[1]!);
    address = address.replace(embedded[1]!, `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`);
  }
  const [head = '', tail] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return groups.reduce((n, group) => (n << 16n) + BigInt(parseInt(group || '0', 16)), 0n);
}

/** The ISO 3166-1 alpha-2 country of `ip`, or null for an unknown, private or malformed address. */
export function countryOfIp(ip: string | null | undefined): string | null {
  if (!ip) return null;
  const address = ip.trim().replace(/^\[|\]$/g, '');
  const family = isIP(address);
  if (family === 4) {
    ipv4 ??= readRanges('dbip-country-ipv4-num.csv', Number);
    return normalized(find(ipv4, ipv4Number(address)));
  }
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return countryOfIp(mapped[1]);
    ipv6 ??= readRanges('dbip-country-ipv6-num.csv', BigInt);
    return normalized(find(ipv6, ipv6Number(address)));
  }
  return null;
}

/** DB-IP marks reserved ranges "ZZ". */
const normalized = (country: string | null) => (country && /^[A-Z]{2}$/.test(country) && country !== 'ZZ' ? country : null);
