import { DomainError } from '../../lib/domain-error.js';

export const tooManyStreams = (limit: number): DomainError =>
  new DomainError(
    'too_many',
    'too_many_streams',
    `This environment already has ${limit} change streams open; close one (one per process is enough: a stream names every customer)`,
  );
