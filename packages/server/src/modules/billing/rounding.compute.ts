/**
 * Integer rounding for billing maths. Every product of two amounts is taken
 * in BigInt, so nothing is lost even where it passes 2^53; results come back
 * as ordinary numbers once they are known to be exact.
 */

/** The integer, as a BigInt; refuses anything that is not an exact integer. */
export function exact(value: number, what: string): bigint {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be an integer, got ${value}`);
  return BigInt(value);
}

/** Back to a number; refuses what a number could not hold exactly. */
export function toNumber(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`${what} is too large`);
  }
  return Number(value);
}

/**
 * n / d rounded half up: 0.5 goes to 1, 2.5 to 3. A negative n mirrors the
 * positive one (half away from zero), so -x always rounds to -(round x).
 */
export function divRoundHalfUp(n: bigint, d: bigint): bigint {
  if (d <= 0n) throw new RangeError('the divisor must be positive');
  if (n < 0n) return -divRoundHalfUp(-n, d);
  return (2n * n + d) / (2n * d);
}

/** round_half_up(a × b / c) for integers, computed exactly. */
export function mulDivRoundHalfUp(a: number, b: number, c: number, what = 'the result'): number {
  return toNumber(divRoundHalfUp(exact(a, 'an amount') * exact(b, 'a factor'), exact(c, 'a divisor')), what);
}

/** Basis points as the percentage text of the wire: 290 -> "2.9", 1950 -> "19.5", 300 -> "3". */
export function percentText(bp: number): string {
  const whole = Math.trunc(bp / 100);
  const fraction = String(Math.abs(bp % 100)).padStart(2, '0').replace(/0+$/, '');
  return fraction ? `${bp < 0 && whole === 0 ? '-' : ''}${whole}.${fraction}` : String(whole);
}
