import { describe, expect, it } from 'vitest';
import { echoedEventKey, parseEventTimestamp, rawMeterOf } from './events.compute.js';

describe('rawMeterOf', () => {
  it('reads the aggregation, names fields in camelCase and splits the event name from property filters', () => {
    expect(
      rawMeterOf({
        aggregation: { function: 'SUM', field: 'token_count' },
        filters: [{ property: 'model_name', value: 'large' }, { eventName: 'llm_call', region: 'eu' }],
      }),
    ).toEqual({ aggregation: 'SUM', field: 'tokenCount', eventName: 'llm_call', properties: { modelName: 'large', region: 'eu' } });
    expect(rawMeterOf({ aggregation: { function: 'COUNT', field: 'ignored' } })).toEqual({
      aggregation: 'COUNT',
      field: null,
      eventName: null,
      properties: {},
    });
    expect(rawMeterOf({ filters: [{ property: 'event_name', value: 'x' }] })).toMatchObject({ aggregation: 'COUNT', eventName: 'x' });
    expect(rawMeterOf({ aggregation: { function: 'MAX' } })).toMatchObject({ aggregation: 'MAX', field: 'value' });
  });
});

describe('parseEventTimestamp', () => {
  it.each([
    ['2025-05-22 07:53:55.747959', '2025-05-22T07:53:55.747Z', '2025-05-22 07:53:55.747959+00'],
    ['2025-05-22 07:53:55', '2025-05-22T07:53:55.000Z', '2025-05-22 07:53:55.000000+00'],
    ['2025-05-22T07:53:55.5', '2025-05-22T07:53:55.500Z', '2025-05-22 07:53:55.500000+00'],
    ['2025-05-22T07:53:55Z', '2025-05-22T07:53:55.000Z', '2025-05-22 07:53:55.000000+00'],
    ['2025-05-22T09:53:55.123456789+02:00', '2025-05-22T07:53:55.123Z', '2025-05-22 07:53:55.123456+00'],
    ['2025-05-22T00:30-0100', '2025-05-22T01:30:00.000Z', '2025-05-22 01:30:00.000000+00'],
    ['2024-02-29 23:59:59', '2024-02-29T23:59:59.000Z', '2024-02-29 23:59:59.000000+00'],
  ])('reads %s', (text, instant, stored) => {
    const parsed = parseEventTimestamp(text);
    expect(parsed?.at.toISOString()).toBe(instant);
    expect(parsed?.text).toBe(stored);
  });

  it.each(['', 'now', '2025-02-29 10:00:00', '2025-13-01 10:00:00', '2025-05-22 24:00:00', '2025-05-22 10:60:00', '0099-01-01 00:00:00', '2025-05-22T10:00:00+25:00', '1747900435'])(
    'refuses %j',
    (text) => {
      expect(parseEventTimestamp(text)).toBeNull();
    },
  );
});

describe('echoedEventKey', () => {
  it('strips the dashes of a UUID, as the reference echoes it, and keeps other keys', () => {
    expect(echoedEventKey('45F05C73-7A0B-44D4-82C6-042816D5645D')).toBe('45f05c737a0b44d482c6042816d5645d');
    expect(echoedEventKey('order-17-line-2')).toBe('order-17-line-2');
  });
});
