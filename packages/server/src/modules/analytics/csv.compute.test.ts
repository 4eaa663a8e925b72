import { describe, expect, it } from 'vitest';
import { csvOf } from './csv.compute.js';

describe('csvOf', () => {
  it('quotes what needs quoting, leaves empty cells for nulls and defuses formulas', () => {
    expect(csvOf(['a', 'b', 'c'], [['Lin, "the" buyer', null, -2000], ['=SUM(A1)', 'two\nlines', 0]])).toBe(
      'a,b,c\r\n"Lin, ""the"" buyer",,-2000\r\n\'=SUM(A1),"two\nlines",0\r\n',
    );
  });
});
