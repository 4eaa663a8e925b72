import { notFound } from '../../lib/domain-error.js';

export const creditNoteNotFound = (id: string) => notFound(`No credit note with id "${id}"`, 'credit_note_not_found');
