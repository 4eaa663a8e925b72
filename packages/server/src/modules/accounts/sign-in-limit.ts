/**
 * Failed sign-ins counted per client address, in this process's memory, in a sliding window:
 * past the limit the address is refused (429) until its oldest failure leaves the window.
 * The per-account lockout (users.locked_until) is the durable part, shared by every process.
 */
export class SignInLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  private recent(address: string, now: number): number[] {
    const kept = (this.failures.get(address) ?? []).filter((at) => at > now - this.windowMs);
    if (kept.length === 0) this.failures.delete(address);
    else this.failures.set(address, kept);
    return kept;
  }

  blocked(address: string, now: number): boolean {
    return this.recent(address, now).length >= this.max;
  }

  /** Counts one more attempt of `address` (a failed sign-in, a link asked for). */
  fail(address: string, now: number): void {
    if (this.failures.size > 50_000) this.failures.clear();
    this.failures.set(address, [...this.recent(address, now), now]);
  }
}
