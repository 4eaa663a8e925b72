/**
 * The three books the analytics job keeps (decision 0106), pure: the whole business's, each
 * plan's and each product's. One logged transaction moves all three, the whole business's
 * first, so that the job and a rebuild make the same movements in the same order.
 */
import { MrrBook, type MovementRecord, type PricedTerms } from './book.compute.js';

export const DIMENSIONS = ['all', 'plan', 'product'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export type Books = Record<Dimension, MrrBook>;

/** The plan and the product a subscription's terms are priced from, by their identifiers. */
export interface Owners {
  plan: string;
  product: string;
}

export interface BookMovement extends MovementRecord {
  dimension: Dimension;
}

export const emptyBooks = (): Books => ({ all: new MrrBook(), plan: new MrrBook(), product: new MrrBook() });

/** The segment of a book the owners put a subscription in. */
export function segmentOf(dimension: Dimension, owners: Owners): string {
  return dimension === 'all' ? '' : owners[dimension];
}

/** Moves every book by the priced terms of one logged transaction. */
export function applyToBooks(books: Books, entries: readonly { terms: PricedTerms; owners: Owners }[]): BookMovement[] {
  return DIMENSIONS.flatMap((dimension) =>
    books[dimension]
      .apply(entries.map(({ terms, owners }) => ({ ...terms, segment: segmentOf(dimension, owners) })))
      .map((movement) => ({ ...movement, dimension })),
  );
}
