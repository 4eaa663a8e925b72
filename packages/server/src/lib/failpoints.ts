/**
 * Named points where a test can make the process die at once (SIGKILL), to prove that
 * what a crash there leaves behind is recovered. Off unless BILLOW_FAILPOINTS names
 * them; meant for tests of crash recovery, never for production.
 */
const armed = new Set<string>();

export type Failpoint =
  | 'payment.after-intent'
  | 'payment.after-provider'
  | 'payment.after-settle'
  | 'idempotency.before-answer'
  | 'refund.after-provider'
  | 'invoice.after-number';
export const FAILPOINTS: readonly Failpoint[] = [
  'payment.after-intent',
  'payment.after-provider',
  'payment.after-settle',
  'idempotency.before-answer',
  'refund.after-provider',
  'invoice.after-number',
];

export function armFailpoints(names: Iterable<Failpoint>): void {
  for (const name of names) armed.add(name);
}

/** Dies here, at once and without cleaning up, when this point is armed. */
export function failpoint(name: Failpoint): void {
  if (armed.has(name)) process.kill(process.pid, 'SIGKILL');
}
