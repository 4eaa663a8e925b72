/** Refunding an order (use-cases/refund-order.ts) as this module's route asks for it; app.ts hands it in. */
import type { Refund, RefundCreate } from '@billow/contract';
import type { AnswerKeeper } from '../../db/answer-keeper.js';
import type { LedgerScope } from '../ledger/scope.js';

export interface RefundCreator {
  create(scope: LedgerScope, input: RefundCreate, keeper?: AnswerKeeper): Promise<Refund>;
}
