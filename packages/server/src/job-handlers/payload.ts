/** A text field of a job's payload; a job queued without it fails (and is retried, then dead) with this error. */
export function stringField(payload: Record<string, unknown>, field: string): string {
  const value = payload[field];
  if (typeof value !== 'string') throw new Error(`the job's payload has no ${field}`);
  return value;
}
