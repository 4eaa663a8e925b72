/**
 * The subscriber figures' three books (decision 0107), pure, beside the MRR books of decision
 * 0106: the whole business's, each plan's and each product's. One logged transaction moves all
 * three, the whole business's first, so the job and a rebuild make the same events in the same
 * order.
 */
import { DIMENSIONS, segmentOf, type Dimension, type Owners } from './books.compute.js';
import { SubscriberBook, type SubscriberEntry, type SubscriberEvent } from './subscribers.compute.js';

export type SubscriberBooks = Record<Dimension, SubscriberBook>;

export interface BookEvent extends SubscriberEvent {
  dimension: Dimension;
}

export const emptySubscriberBooks = (): SubscriberBooks => ({ all: new SubscriberBook(), plan: new SubscriberBook(), product: new SubscriberBook() });

/** Moves every book by the entries of one logged transaction, each with the plan and the product it is priced from. */
export function applyToSubscriberBooks(books: SubscriberBooks, entries: readonly { entry: SubscriberEntry; owners: Owners }[]): BookEvent[] {
  return DIMENSIONS.flatMap((dimension) =>
    books[dimension]
      .apply(entries.map(({ entry, owners }) => ({ ...entry, segment: segmentOf(dimension, owners) })))
      .map((event) => ({ ...event, dimension })),
  );
}
