import { describe, expect, it } from 'vitest';
import { DEFAULT_FEE_SCHEDULE, fixedFeeFor, morFee, type FeeSchedule } from './fees.compute.js';

describe('morFee', () => {
  it('takes the high-volume rate when the seller is known to have reached the threshold, whatever the prior volume says', () => {
    const known = morFee({ grossMinor: 10_000, currency: 'USD', recurring: false, international: false, highVolume: true });
    const below = morFee({ grossMinor: 10_000, currency: 'USD', recurring: false, international: false, priorVolumeUsdMinor: 0 });
    expect(known.breakdown.find((l) => l.name === 'base_fee')?.percentage).toBe('3.5');
    expect(below.breakdown.find((l) => l.name === 'base_fee')?.percentage).toBe('2.9');
  });

  it('takes 2.9 % + 0.40 on a one-time domestic charge below the volume threshold', () => {
    expect(morFee({ grossMinor: 10000, currency: 'USD', recurring: false, international: false })).toEqual({
      totalMinor: 330,
      breakdown: [
        { name: 'base_fee', percentage: '2.9', valueUnits: 290, currency: 'USD' },
        { name: 'fixed_fee', percentage: null, valueUnits: 40, currency: 'USD' },
      ],
    });
  });

  it('takes 3.5 % once the volume has reached 5,000 USD, with every component', () => {
    expect(
      morFee({ grossMinor: 10000, currency: 'USD', recurring: true, international: true, priorVolumeUsdMinor: 500_000 }),
    ).toEqual({
      totalMinor: 610,
      breakdown: [
        { name: 'base_fee', percentage: '3.5', valueUnits: 350, currency: 'USD' },
        { name: 'fixed_fee', percentage: null, valueUnits: 40, currency: 'USD' },
        { name: 'subscription_fee', percentage: '0.7', valueUnits: 70, currency: 'USD' },
        { name: 'international_fee', percentage: '1.5', valueUnits: 150, currency: 'USD' },
      ],
    });
  });

  it('keeps the base rate one cent below the threshold', () => {
    const fees = morFee({ grossMinor: 10000, currency: 'USD', recurring: false, international: false, priorVolumeUsdMinor: 499_999 });
    expect(fees.breakdown[0]).toEqual({ name: 'base_fee', percentage: '2.9', valueUnits: 290, currency: 'USD' });
    expect(fees.totalMinor).toBe(330);
  });

  it('rounds each percentage half up on its own, on the gross', () => {
    // 19.99: 2.9 % = 0.57971 -> 0.58, 0.7 % = 0.13993 -> 0.14, 1.5 % = 0.29985 -> 0.30
    const odd = morFee({ grossMinor: 1999, currency: 'USD', recurring: true, international: true });
    expect(odd.breakdown.map((l) => l.valueUnits)).toEqual([58, 40, 14, 30]);
    expect(odd.totalMinor).toBe(142);
    // 5.00: 2.9 % = 0.145 -> 0.15, 0.7 % = 0.035 -> 0.04, 1.5 % = 0.075 -> 0.08 (all exact halves)
    const halves = morFee({ grossMinor: 500, currency: 'USD', recurring: true, international: true });
    expect(halves.breakdown.map((l) => l.valueUnits)).toEqual([15, 40, 4, 8]);
    expect(halves.totalMinor).toBe(67);
  });

  it('charges in JPY with a whole-yen fixed fee', () => {
    // 5478 × 2.9 % = 158.862 -> 159; 5478 × 0.7 % = 38.346 -> 38
    expect(morFee({ grossMinor: 5478, currency: 'JPY', recurring: true, international: false })).toEqual({
      totalMinor: 257,
      breakdown: [
        { name: 'base_fee', percentage: '2.9', valueUnits: 159, currency: 'JPY' },
        { name: 'fixed_fee', percentage: null, valueUnits: 60, currency: 'JPY' },
        { name: 'subscription_fee', percentage: '0.7', valueUnits: 38, currency: 'JPY' },
      ],
    });
  });

  it('charges in KWD with 0.400 KWD fixed', () => {
    // 16.125 KWD: 2.9 % = 0.467625 -> 0.468; 1.5 % = 0.241875 -> 0.242
    expect(morFee({ grossMinor: 16125, currency: 'KWD', recurring: false, international: true })).toEqual({
      totalMinor: 1110,
      breakdown: [
        { name: 'base_fee', percentage: '2.9', valueUnits: 468, currency: 'KWD' },
        { name: 'fixed_fee', percentage: null, valueUnits: 400, currency: 'KWD' },
        { name: 'international_fee', percentage: '1.5', valueUnits: 242, currency: 'KWD' },
      ],
    });
  });

  it('takes no fee at all on a zero gross', () => {
    expect(morFee({ grossMinor: 0, currency: 'USD', recurring: true, international: true })).toEqual({ totalMinor: 0, breakdown: [] });
  });

  it('refuses a negative or fractional gross', () => {
    expect(() => morFee({ grossMinor: -100, currency: 'USD', recurring: false, international: false })).toThrow(RangeError);
    expect(() => morFee({ grossMinor: 10.5, currency: 'USD', recurring: false, international: false })).toThrow(RangeError);
  });

  it('follows a configured schedule', () => {
    const schedule: FeeSchedule = {
      basePercentBp: 390,
      highVolumeBasePercentBp: 390,
      highVolumeThresholdUsdMinor: 0,
      fixedFeeMinor: { EUR: 35 },
      subscriptionPercentBp: 50,
      internationalPercentBp: 0,
    };
    expect(morFee({ grossMinor: 10000, currency: 'EUR', recurring: true, international: true }, schedule)).toEqual({
      totalMinor: 475,
      breakdown: [
        { name: 'base_fee', percentage: '3.9', valueUnits: 390, currency: 'EUR' },
        { name: 'fixed_fee', percentage: null, valueUnits: 35, currency: 'EUR' },
        { name: 'subscription_fee', percentage: '0.5', valueUnits: 50, currency: 'EUR' },
      ],
    });
  });
});

describe('fixedFeeFor', () => {
  it.each([
    ['USD', 40],
    ['EUR', 40],
    ['GBP', 40],
    ['CHF', 40], // not listed: 0.40 of the major unit
    ['KWD', 400], // three decimals: 0.400
    ['BHD', 400],
    ['JPY', 60],
    ['KRW', 550],
    ['HUF', 140],
    ['LAK', 0], // no decimals and not listed: 0.40 rounds to 0
  ])('%s: %i', (currency, fee) => {
    expect(fixedFeeFor(currency)).toBe(fee);
  });

  it('the default schedule is the reference fees page', () => {
    expect(DEFAULT_FEE_SCHEDULE).toMatchObject({
      basePercentBp: 290,
      highVolumeBasePercentBp: 350,
      highVolumeThresholdUsdMinor: 500_000,
      subscriptionPercentBp: 70,
      internationalPercentBp: 150,
    });
  });

  it('leaves out the fixed fee line where the fixed fee is 0', () => {
    const fees = morFee({ grossMinor: 10000, currency: 'LAK', recurring: false, international: false });
    expect(fees).toEqual({ totalMinor: 290, breakdown: [{ name: 'base_fee', percentage: '2.9', valueUnits: 290, currency: 'LAK' }] });
  });
});
