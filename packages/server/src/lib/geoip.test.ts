import { describe, expect, it } from 'vitest';
import { countryOfIp } from './geoip.js';

describe('countryOfIp', () => {
  it.each([
    ['1.0.0.1', 'AU'],
    ['1.0.1.1', 'CN'],
    ['[2a00:1450:4001::1]', 'DE'],
    ['::ffff:1.0.0.1', 'AU'],
  ])('finds the country of %s', (ip, country) => {
    expect(countryOfIp(ip)).toBe(country);
  });

  it.each([['10.0.0.1'], ['127.0.0.1'], ['::1'], ['not an ip'], [''], [null]])('answers null for %s', (ip) => {
    expect(countryOfIp(ip)).toBeNull();
  });
});
