import { describe, expect, it } from 'vitest';
import { postgresParameters, postgresTimestamp } from './timestamps.js';

describe('postgresTimestamp', () => {
  it.each([
    ['2026-11-30T14:00:00.000Z', '2026-11-30T14:00:00.000Z'],
    ['0001-01-01T00:00:00.000Z', '0001-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    ['+010000-01-01T00:00:00.000Z', '10000-01-01T00:00:00.000Z'],
    ['+275760-09-13T00:00:00.000Z', '275760-09-13T00:00:00.000Z'],
    ['0000-06-01T00:00:00.000Z', '0001-06-01T00:00:00.000Z BC'],
    ['-000001-06-01T00:00:00.000Z', '0002-06-01T00:00:00.000Z BC'],
  ])('writes %s as %s', (iso, text) => {
    expect(postgresTimestamp(new Date(iso))).toBe(text);
  });

  it('leaves parameters without far dates as they are', () => {
    const ordinary = [1, 'a', new Date('2026-01-01T00:00:00Z'), null];
    expect(postgresParameters(ordinary)).toBe(ordinary);
    expect(postgresParameters([1, new Date('+010000-01-01T00:00:00Z')])).toEqual([1, '10000-01-01T00:00:00.000Z']);
  });
});
