import { describe, expect, it } from 'vitest';
import { DomainError } from '../../lib/domain-error.js';
import { cancellationEnd, parseStatuses } from './requests.compute.js';

const now = new Date('2027-03-10T15:00:00Z');
const row = { current_period_end: new Date('2027-04-01T00:00:00Z') };

describe('cancellationEnd', () => {
  it('ends now, at the period end, or at the start of the date given', () => {
    expect(cancellationEnd({ cancellationType: 'IMMEDIATE' }, row, now)).toEqual(now);
    expect(cancellationEnd({ cancellationType: 'CURRENT_PERIOD_ENDS' }, row, now)).toEqual(row.current_period_end);
    expect(cancellationEnd({ cancellationType: 'SPECIFIC_DATE', cancellationDate: '2027-03-20' }, row, now)).toEqual(new Date('2027-03-20T00:00:00Z'));
    expect(cancellationEnd({ cancellationType: 'SPECIFIC_DATE', cancellationDate: '2027-03-10' }, row, now)).toEqual(new Date('2027-03-10T00:00:00Z'));
  });

  it('refuses a missing, malformed, impossible or past date with a 400', () => {
    for (const cancellationDate of [undefined, '20-03-2027', '2027-02-30x', '2027-13-45', '2027-03-09']) {
      expect(() => cancellationEnd({ cancellationType: 'SPECIFIC_DATE', cancellationDate }, row, now)).toThrow(DomainError);
    }
  });
});

describe('parseStatuses', () => {
  it('reads a comma list and refuses an unknown status', () => {
    expect(parseStatuses('active, past_due,')).toEqual(['active', 'past_due']);
    expect(() => parseStatuses('active,paused')).toThrow(/paused/);
  });
});
