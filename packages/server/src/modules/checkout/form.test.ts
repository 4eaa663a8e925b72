import { describe, expect, it } from 'vitest';
import { DomainError } from '../../lib/domain-error.js';
import { buyerProblem } from './form.js';

describe('a refusal as the buyer at the page reads it', () => {
  it('has its catalogue words when the catalogue says it', () => {
    expect(buyerProblem(new DomainError('invalid', 'card_declined', 'The card was declined'))).toMatchObject({ key: 'problem.card_declined' });
  });

  it('is one general message when the catalogue has no words for it: the detail is for engineers', () => {
    const keyRejected = new DomainError('invalid', 'provider_key_rejected', "The payment provider refused this environment's secret key; set it with `billow provider set`");
    const problem = buyerProblem(keyRejected);
    expect(problem.key).toBe('problem.notCompleted');
    expect(problem.message).not.toContain('billow');
    expect(problem.message).toContain('nothing was charged');
  });
});
