/** A pause of a polling loop that ends early when woken (new work, or stop). */
export class WakeUp {
  private wakeCurrent: (() => void) | null = null;

  /** Resolves after `ms`, or at the next wake(); at once when `skip` is true. */
  sleep(ms: number, skip = false): Promise<void> {
    if (skip) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      this.wakeCurrent = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  wake(): void {
    this.wakeCurrent?.();
  }
}
