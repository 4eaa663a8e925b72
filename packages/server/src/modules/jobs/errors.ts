/** A job command that cannot be done as asked (unknown job, not dead, its work already queued again). */
export class JobError extends Error {
  constructor(
    readonly code: 'not_found' | 'not_dead' | 'already_queued',
    message: string,
  ) {
    super(message);
    this.name = 'JobError';
  }
}
