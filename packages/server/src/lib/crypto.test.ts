import { describe, expect, it } from 'vitest';
import { newTimeOrderedId } from './crypto.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newTimeOrderedId', () => {
  it('is a version-7 UUID whose first 48 bits are the instant in milliseconds', () => {
    const at = new Date('2026-11-26T04:41:07.123Z');
    const id = newTimeOrderedId(at);
    expect(id).toMatch(V7);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at.getTime());
  });

  it('sorts by instant, and differs within one instant', () => {
    const instants = ['1970-01-01T00:00:00.001Z', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00.001Z', '2100-06-30T23:59:59.999Z'];
    const ids = instants.map((text) => newTimeOrderedId(new Date(text)));
    expect([...ids].sort()).toEqual(ids);
    const same = new Set(Array.from({ length: 1000 }, () => newTimeOrderedId(new Date(instants[1]!))));
    expect(same.size).toBe(1000);
    for (const id of same) expect(id).toMatch(V7);
  });
});
